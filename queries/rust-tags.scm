; Rust tags. Kinds: struct and union → class (aider's choice), enum → enum, type alias and
; associated type → type, trait → interface, fn → function, fn inside impl or trait → method,
; mod → module, macro_rules! → macro, const and static → constant.

(struct_item name: (type_identifier) @name.definition.class) @definition.class
(union_item name: (type_identifier) @name.definition.class) @definition.class
(enum_item name: (type_identifier) @name.definition.enum) @definition.enum
(type_item name: (type_identifier) @name.definition.type) @definition.type
(associated_type name: (type_identifier) @name.definition.type) @definition.type
(trait_item name: (type_identifier) @name.definition.interface) @definition.interface

; A name node captured twice keeps its first kind, and a match that starts higher comes first:
; these method patterns start at the impl or trait, so they win over the function patterns.
(impl_item body: (declaration_list
  (function_item name: (identifier) @name.definition.method) @definition.method))
(trait_item body: (declaration_list
  [(function_item name: (identifier) @name.definition.method)
   (function_signature_item name: (identifier) @name.definition.method)] @definition.method))
(function_item name: (identifier) @name.definition.function) @definition.function
(function_signature_item name: (identifier) @name.definition.function) @definition.function

(mod_item name: (identifier) @name.definition.module) @definition.module
(macro_definition name: (identifier) @name.definition.macro) @definition.macro
(const_item name: (identifier) @name.definition.constant) @definition.constant
(static_item name: (identifier) @name.definition.constant) @definition.constant

(impl_item trait: [
  (type_identifier) @name.reference.implementation
  (scoped_type_identifier name: (type_identifier) @name.reference.implementation)
  (generic_type type: (type_identifier) @name.reference.implementation)])
(impl_item type: [
  (type_identifier) @name.reference.implementation
  (generic_type type: (type_identifier) @name.reference.implementation)])

(call_expression function: [
  (identifier) @name.reference.call
  (field_expression field: (field_identifier) @name.reference.call)
  (scoped_identifier name: (identifier) @name.reference.call)
  (generic_function function: [
    (identifier) @name.reference.call
    (field_expression field: (field_identifier) @name.reference.call)
    (scoped_identifier name: (identifier) @name.reference.call)])])

(macro_invocation macro: [
  (identifier) @name.reference.macro
  (scoped_identifier name: (identifier) @name.reference.macro)])

(type_identifier) @name.reference.type

; The names a `use` brings in, and the module path it names.
(use_declaration argument: (scoped_identifier name: (identifier) @name.reference.import))
(use_list [
  (identifier) @name.reference.import
  (scoped_identifier name: (identifier) @name.reference.import)])
(use_as_clause path: (scoped_identifier name: (identifier) @name.reference.import))

; Whole use trees and `mod x;` items: the worker flattens them to one import entry per path
; (workers/rustUseTrees.ts).
(use_declaration) @import.tree
(mod_item !body) @import.tree
(extern_crate_declaration name: (identifier) @import)
