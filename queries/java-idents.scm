(identifier) @name.reference.identifier
(type_identifier) @name.reference.identifier
