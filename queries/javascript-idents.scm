; inherits: _ecmascript-idents
