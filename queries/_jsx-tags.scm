; JSX patterns, shared by javascript-tags.scm and tsx-tags.scm (the TypeScript grammar has no
; JSX nodes). A capitalised tag names a component; lower-case tags are HTML elements. Closing
; tags are skipped: `<Panel>…</Panel>` uses Panel once.

(jsx_opening_element
  name: [
    (identifier) @name.reference.component
    (member_expression
      property: (property_identifier) @name.reference.component)
  ]
  (#match? @name.reference.component "^[A-Z]"))

(jsx_self_closing_element
  name: [
    (identifier) @name.reference.component
    (member_expression
      property: (property_identifier) @name.reference.component)
  ]
  (#match? @name.reference.component "^[A-Z]"))
