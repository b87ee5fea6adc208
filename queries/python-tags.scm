; Python tags: aider's definitions and references (classes, functions, module-level
; assignments as constants, calls, imports) plus methods, class constants, type aliases,
; base classes, decorators and type annotations.

; ---- Definitions ----

(class_definition
  name: (identifier) @name.definition.class) @definition.class

; A function directly in a class body, plain or decorated, is a method. The generic function
; pattern below captures it too; a name keeps the tag of its first match, and tree-sitter yields
; this match (rooted at the class) first. The definition node is the function itself, not the
; decorated_definition, so the signature starts at `def`.
(class_definition
  body: (block
    [
      (function_definition
        name: (identifier) @name.definition.method) @definition.method
      (decorated_definition
        definition: (function_definition
          name: (identifier) @name.definition.method) @definition.method)
    ]))

(function_definition
  name: (identifier) @name.definition.function) @definition.function

; aider's rule: any module-level assignment to a name, annotated (`X: int = 1`) or not.
(module
  (expression_statement
    (assignment
      left: (identifier) @name.definition.constant) @definition.constant))

; In a class body only UPPER_CASE names: enum members and class constants, not every field.
((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @name.definition.constant) @definition.constant)))
  (#match? @name.definition.constant "^[A-Z][A-Z0-9_]*$"))

(type_alias_statement
  left: (type (identifier) @name.definition.type)) @definition.type

; ---- References ----

(call
  function: [
    (identifier) @name.reference.call
    (attribute
      attribute: (identifier) @name.reference.call)
  ])

; `class A(Base, pkg.Mixin, Generic[T])`: keyword arguments such as metaclass= are not bases.
(class_definition
  superclasses: (argument_list
    [
      (identifier) @name.reference.implementation
      (attribute
        attribute: (identifier) @name.reference.implementation)
      (subscript
        value: (identifier) @name.reference.implementation)
    ]))

; A decorator with arguments is a call and is tagged by the call pattern.
(decorator
  [
    (identifier) @name.reference.decorator
    (attribute
      attribute: (identifier) @name.reference.decorator)
  ])

; Annotations: `x: Order`, `-> pkg.Order`, `list[Order]`, `Order | None`. Nested generic
; arguments are `type` nodes themselves, so they match again.
(type
  [
    (identifier) @name.reference.type
    (attribute
      attribute: (identifier) @name.reference.type)
    (generic_type
      (identifier) @name.reference.type)
    (binary_operator
      [
        (identifier) @name.reference.type
        (binary_operator (identifier) @name.reference.type)
      ])
  ])

; Imported modules are references as in aider (the dotted name as written) and entries of the
; file's imports (@import); names taken from a module are references to their definitions and
; the entry's names (@import.name), one match per name, each carrying its module.
(import_statement
  name: [
    (dotted_name) @name.reference.import @import
    (aliased_import
      name: (dotted_name) @name.reference.import @import)
  ])

(import_from_statement
  module_name: (dotted_name) @name.reference.import)

(import_from_statement
  module_name: (_) @import
  name: [
    (dotted_name) @name.reference.import @import.name
    (aliased_import
      name: (dotted_name) @name.reference.import @import.name)
  ])

; `from m import *` takes every name: `*`.
(import_from_statement
  module_name: (_) @import
  (wildcard_import) @import.name)
