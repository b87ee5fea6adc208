(module (expression_statement (assignment left: (identifier) @name.definition.constant) @definition.constant))

(class_definition name: (identifier) @name.definition.class) @definition.class

(function_definition name: (identifier) @name.definition.function) @definition.function

(call function: [
  (identifier) @name.reference.call
  (attribute attribute: (identifier) @name.reference.call)])

(import_statement name: (dotted_name) @import)
(import_statement name: (aliased_import name: (dotted_name) @import))
(import_from_statement module_name: [(dotted_name) (relative_import)] @import)
