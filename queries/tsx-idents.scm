; inherits: typescript-idents
