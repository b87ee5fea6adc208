; inherits: _ecmascript-tags, _jsx-tags
; JavaScript-only node names (tree-sitter-javascript 0.25; TypeScript 0.23.2 names them apart).

; Class fields holding functions: `handleClick = (event) => {…}`.
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name.definition.method
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

; `class Cart extends Base`, `class Modal extends React.Component`.
(class_heritage
  [
    (identifier) @name.reference.implementation
    (member_expression
      property: (property_identifier) @name.reference.implementation)
  ])
