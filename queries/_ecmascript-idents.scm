; Every identifier-like node, for aider's fallback (a file that defines but references nothing).
[
  (identifier)
  (property_identifier)
  (private_property_identifier)
  (shorthand_property_identifier)
  (shorthand_property_identifier_pattern)
] @name.reference.identifier
