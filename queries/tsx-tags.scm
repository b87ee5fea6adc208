; inherits: typescript-tags, _jsx-tags
; TSX is TypeScript plus JSX: everything comes from the two inherited files.
