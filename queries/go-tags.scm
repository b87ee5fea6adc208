; Go tags. Kinds: package → module, func → function, func with a receiver and interface
; method → method, struct type → class (aider's choice), interface type → interface, any other
; type → type, const → constant, package-level var → variable.

(package_clause (package_identifier) @name.definition.module) @definition.module

(function_declaration name: (identifier) @name.definition.function) @definition.function
(method_declaration name: (field_identifier) @name.definition.method) @definition.method
(method_elem name: (field_identifier) @name.definition.method) @definition.method

; A name node captured twice keeps its first kind. These three patterns start and finish at the
; same nodes (`type: (_)` keeps the last one from finishing early, at the name), so their matches
; come in pattern order: struct and interface before the catch-all.
(type_spec name: (type_identifier) @name.definition.class type: (struct_type)) @definition.class
(type_spec name: (type_identifier) @name.definition.interface type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name.definition.type type: (_)) @definition.type
(type_alias name: (type_identifier) @name.definition.type) @definition.type

(const_spec name: (identifier) @name.definition.constant) @definition.constant
(source_file (var_declaration
  (var_spec name: (identifier) @name.definition.variable) @definition.variable))
(source_file (var_declaration (var_spec_list
  (var_spec name: (identifier) @name.definition.variable) @definition.variable)))

(call_expression function: [
  (identifier) @name.reference.call
  (selector_expression field: (field_identifier) @name.reference.call)
  (parenthesized_expression [
    (identifier) @name.reference.call
    (selector_expression field: (field_identifier) @name.reference.call)])])

(type_identifier) @name.reference.type

(import_spec path: (_) @import)
