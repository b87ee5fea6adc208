; Tag patterns valid in the JavaScript, TypeScript and TSX grammars alike. Spliced into
; javascript-tags.scm and typescript-tags.scm (and through the latter, tsx-tags.scm).
; The extractor keeps the first match of a name node, and tree-sitter reports matches that
; start at an outer node first: patterns rooted higher up win overlaps.

; ---- Definitions -------------------------------------------------------------------------

; class_declaration's name is an identifier in JavaScript, a type_identifier in TypeScript.
(class_declaration
  name: (_) @name.definition.class) @definition.class

; Named class expressions: `module.exports = class Store {}`.
(class
  name: (_) @name.definition.class) @definition.class

[
  (function_declaration
    name: (identifier) @name.definition.function)
  (generator_function_declaration
    name: (identifier) @name.definition.function)
  (function_expression
    name: (identifier) @name.definition.function)
  (generator_function
    name: (identifier) @name.definition.function)
] @definition.function

; `const add = (a, b) => …`, `var load = function () {…}`: the declaration is the definition,
; so its signature keeps the `const`.
[
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name.definition.function
      value: [(arrow_function) (function_expression) (generator_function)]))
  (variable_declaration
    (variable_declarator
      name: (identifier) @name.definition.function
      value: [(arrow_function) (function_expression) (generator_function)]))
] @definition.function

; `const Store = class {…}`.
[
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name.definition.class
      value: (class)))
  (variable_declaration
    (variable_declarator
      name: (identifier) @name.definition.class
      value: (class)))
] @definition.class

; `exports.load = function …`, `module.exports.load = …`, `Cart.prototype.add = …`.
(assignment_expression
  left: [
    (identifier) @name.definition.function
    (member_expression
      property: (property_identifier) @name.definition.function)
  ]
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.function

; Class methods, getters and setters, and object-literal methods alike.
(method_definition
  name: [(property_identifier) (private_property_identifier)] @name.definition.method
  (#not-eq? @name.definition.method "constructor")) @definition.method

(method_definition
  name: (property_identifier) @name.definition.constructor
  (#eq? @name.definition.constructor "constructor")) @definition.constructor

; `{ total: (items) => … }`: a function-valued property is a method like `{ total(items) {…} }`.
(pair
  key: (property_identifier) @name.definition.method
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

; Exported constants (`export const api = createClient(…)`): a module's public values.
; Function and class values get their own kinds above, so they are not listed here;
; TypeScript adds its `as` and `satisfies` forms.
(export_statement
  declaration: (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name.definition.constant
      value: [
        (call_expression) (new_expression) (await_expression) (object) (array)
        (member_expression) (subscript_expression) (identifier) (string) (template_string)
        (number) (true) (false) (null) (regex) (binary_expression) (unary_expression)
        (ternary_expression) (parenthesized_expression)
      ]))) @definition.constant

; ---- References ----------------------------------------------------------------------------

; `require('x')` is an import (below), not a call of a definition.
(call_expression
  function: (identifier) @name.reference.call
  (#not-eq? @name.reference.call "require"))

(call_expression
  function: (member_expression
    property: [(property_identifier) (private_property_identifier)] @name.reference.call))

(new_expression
  constructor: [
    (identifier) @name.reference.new
    (member_expression
      property: (property_identifier) @name.reference.new)
  ])

; A bare decorator (`@observable`) applies a function like a call; `@Component({…})` is a call.
(decorator
  [
    (identifier) @name.reference.call
    (member_expression
      property: (property_identifier) @name.reference.call)
  ])

; ---- Imports -------------------------------------------------------------------------------

(import_statement
  source: (string) @import)

(export_statement
  source: (string) @import)

; The names an entry takes from its module (@import.name, one match per name, each carrying its
; module), for seeing through index files that re-export; `*` for `export * from`. A default or
; namespace import takes the module itself.
(import_statement
  (import_clause
    (named_imports
      (import_specifier
        name: (_) @import.name)))
  source: (string) @import)

(export_statement
  (export_clause
    (export_specifier
      name: (_) @import.name))
  source: (string) @import)

(export_statement
  "*" @import.name
  source: (string) @import)

(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string) @import)
  (#eq? @_require "require"))

(call_expression
  function: (import)
  arguments: (arguments . (string) @import))
