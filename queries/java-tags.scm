; Java tags: aider's definitions and references (classes, interfaces, methods, calls, `new`,
; superclass and implemented interfaces) plus enums, records, annotation types, constructors,
; constants, type uses, annotations and imports.

; ---- Definitions ----

(class_declaration
  name: (identifier) @name.definition.class) @definition.class

; A record is a class with a canonical constructor.
(record_declaration
  name: (identifier) @name.definition.class) @definition.class

(interface_declaration
  name: (identifier) @name.definition.interface) @definition.interface

; `@interface Audited`: an interface to the type system, used as an annotation.
(annotation_type_declaration
  name: (identifier) @name.definition.interface) @definition.interface

(enum_declaration
  name: (identifier) @name.definition.enum) @definition.enum

(method_declaration
  name: (identifier) @name.definition.method) @definition.method

; `int level() default 1;` inside an annotation type.
(annotation_type_element_declaration
  name: (identifier) @name.definition.method) @definition.method

(constructor_declaration
  name: (identifier) @name.definition.constructor) @definition.constructor

; A record's `Point { ... }` validation block.
(compact_constructor_declaration
  name: (identifier) @name.definition.constructor) @definition.constructor

(enum_constant
  name: (identifier) @name.definition.constant) @definition.constant

; Constants by convention: `static final` and UPPER_CASE, so loggers and serialVersionUID
; stay out. Plain fields are not tagged: nothing references them by a tag we capture.
((field_declaration
  (modifiers "static" "final")
  declarator: (variable_declarator
    name: (identifier) @name.definition.constant)) @definition.constant
  (#match? @name.definition.constant "^[A-Z][A-Z0-9_]*$"))

; Interface fields are implicitly static final.
(constant_declaration
  declarator: (variable_declarator
    name: (identifier) @name.definition.constant)) @definition.constant

; ---- References ----

(method_invocation
  name: (identifier) @name.reference.call)

; `Invoice::total`, `Invoice::new` (whose last name is the class).
(method_reference
  (identifier) @name.reference.call .)

; These name a type_identifier that the generic type pattern below captures too. A name keeps
; the tag of its first match, and tree-sitter yields a match rooted at an ancestor before one
; rooted at the name itself, so `new`/`implementation` win over `type`.
; `new Outer.Inner()` names Inner.
(object_creation_expression
  type: [
    (type_identifier) @name.reference.new
    (generic_type
      (type_identifier) @name.reference.new)
    (scoped_type_identifier
      (type_identifier) @name.reference.new .)
    (generic_type
      (scoped_type_identifier
        (type_identifier) @name.reference.new .))
  ])

(superclass
  [
    (type_identifier) @name.reference.implementation
    (generic_type
      (type_identifier) @name.reference.implementation)
    (scoped_type_identifier
      (type_identifier) @name.reference.implementation .)
    (generic_type
      (scoped_type_identifier
        (type_identifier) @name.reference.implementation .))
  ])

; implements / interface extends lists.
(type_list
  [
    (type_identifier) @name.reference.implementation
    (generic_type
      (type_identifier) @name.reference.implementation)
    (scoped_type_identifier
      (type_identifier) @name.reference.implementation .)
    (generic_type
      (scoped_type_identifier
        (type_identifier) @name.reference.implementation .))
  ])

; Every other use of a type: fields, parameters, results, generic arguments, casts, throws.
; `var` parses as a type name too; filtering it with #not-eq? costs 4% of the query for a
; reference that can never match a definition.
(type_identifier) @name.reference.type

(marker_annotation
  name: (identifier) @name.reference.annotation)

(annotation
  name: (identifier) @name.reference.annotation)

; `import java.util.List;` → module java.util.List; `import java.util.*;` → module java.util
; taking the name `*`.
(import_declaration
  (scoped_identifier) @import)
(import_declaration
  (scoped_identifier) @import
  (asterisk) @import.name)

(package_declaration [(identifier) (scoped_identifier)] @package)

; The imported class (or static member) is a reference; a wildcard import names none.
(import_declaration
  (scoped_identifier
    name: (identifier) @name.reference.import) .)
