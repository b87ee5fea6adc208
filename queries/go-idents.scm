(identifier) @name.reference.identifier
