; inherits: _ecmascript-idents
(type_identifier) @name.reference.identifier
