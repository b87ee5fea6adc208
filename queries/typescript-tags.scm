; inherits: _ecmascript-tags
; TypeScript patterns (tree-sitter-typescript 0.23.2), also inherited by tsx-tags.scm.

; ---- Definitions -------------------------------------------------------------------------

(abstract_class_declaration
  name: (type_identifier) @name.definition.class) @definition.class

(interface_declaration
  name: (type_identifier) @name.definition.interface) @definition.interface

(type_alias_declaration
  name: (type_identifier) @name.definition.type) @definition.type

(enum_declaration
  name: (identifier) @name.definition.enum) @definition.enum

; `namespace Billing {…}` is an internal_module, `module Legacy {…}` a module; in
; `namespace Api.V2` the innermost name is the one code refers to. `declare module 'x'` names
; a package, not a definition.
[
  (internal_module
    name: [
      (identifier) @name.definition.module
      (nested_identifier
        property: (_) @name.definition.module)
    ])
  (module
    name: [
      (identifier) @name.definition.module
      (nested_identifier
        property: (_) @name.definition.module)
    ])
] @definition.module

; Overloads and `declare function`.
(function_signature
  name: (identifier) @name.definition.function) @definition.function

; Interface methods and abstract methods.
[
  (method_signature
    name: [(property_identifier) (private_property_identifier)] @name.definition.method)
  (abstract_method_signature
    name: [(property_identifier) (private_property_identifier)] @name.definition.method)
] @definition.method

(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name.definition.method
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

; `getState: () => T` in an interface or object type is a method signature written as a property.
(property_signature
  name: (property_identifier) @name.definition.method
  type: (type_annotation (function_type))) @definition.method

; Exported constants in TypeScript-only forms: `… as const`, `… satisfies Config`, `…!`.
(export_statement
  declaration: (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name.definition.constant
      value: [(as_expression) (satisfies_expression) (non_null_expression)]))) @definition.constant

; ---- References ----------------------------------------------------------------------------

; Heritage: `extends Base<T>`, `implements Repository<T>`, `interface Admin extends User`.
; Rooted at the clause, these win over the type patterns below for the same names.
(extends_clause
  value: [
    (identifier) @name.reference.implementation
    (member_expression
      property: (property_identifier) @name.reference.implementation)
  ])

[
  (implements_clause
    [
      (type_identifier) @name.reference.implementation
      (generic_type
        name: [
          (type_identifier) @name.reference.implementation
          (nested_type_identifier
            name: (type_identifier) @name.reference.implementation)
        ])
      (nested_type_identifier
        name: (type_identifier) @name.reference.implementation)
    ])
  (extends_type_clause
    [
      (type_identifier) @name.reference.implementation
      (generic_type
        name: [
          (type_identifier) @name.reference.implementation
          (nested_type_identifier
            name: (type_identifier) @name.reference.implementation)
        ])
      (nested_type_identifier
        name: (type_identifier) @name.reference.implementation)
    ])
]

; A type_identifier anywhere a type is written. Declared names (of classes, interfaces, type
; aliases, type parameters, mapped-type keys, `infer` variables) are type_identifiers too, so
; the parents are listed rather than matching every type_identifier.
[
  (type_annotation (type_identifier) @name.reference.type)
  (opting_type_annotation (type_identifier) @name.reference.type)
  (omitting_type_annotation (type_identifier) @name.reference.type)
  (adding_type_annotation (type_identifier) @name.reference.type)
  (type_arguments (type_identifier) @name.reference.type)
  (union_type (type_identifier) @name.reference.type)
  (intersection_type (type_identifier) @name.reference.type)
  (array_type (type_identifier) @name.reference.type)
  (tuple_type (type_identifier) @name.reference.type)
  (optional_type (type_identifier) @name.reference.type)
  (rest_type (type_identifier) @name.reference.type)
  (readonly_type (type_identifier) @name.reference.type)
  (parenthesized_type (type_identifier) @name.reference.type)
  (lookup_type (type_identifier) @name.reference.type)
  (index_type_query (type_identifier) @name.reference.type)
  (constraint (type_identifier) @name.reference.type)
  (default_type (type_identifier) @name.reference.type)
  (function_type (type_identifier) @name.reference.type)
  (constructor_type (type_identifier) @name.reference.type)
  (conditional_type (type_identifier) @name.reference.type)
  (type_predicate (type_identifier) @name.reference.type)
  (template_type (type_identifier) @name.reference.type)
  (as_expression (type_identifier) @name.reference.type)
  (satisfies_expression (type_identifier) @name.reference.type)
  (type_alias_declaration value: (type_identifier) @name.reference.type)
  (mapped_type_clause type: (type_identifier) @name.reference.type)
  (generic_type name: (type_identifier) @name.reference.type)
  (nested_type_identifier name: (type_identifier) @name.reference.type)
]

; ---- Imports -------------------------------------------------------------------------------

; `import fs = require('fs')`.
(import_require_clause
  source: (string) @import)
