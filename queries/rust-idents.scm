; aider's fallback for a file that defines but references nothing: every name in it.
[(identifier) (type_identifier) (field_identifier) (shorthand_field_identifier)] @name.reference.identifier
