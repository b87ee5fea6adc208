import { type Binding, firstReturned, type LanguageRules, type SyntaxNode, stringValue } from './atSyntax.js';

/** JavaScript's and TypeScript's scopes and bindings for `at`: blocks and functions, `var` hoisted to its function. */

const FUNCTIONS = new Set([
  'function_declaration',
  'function_expression',
  'function',
  'generator_function',
  'generator_function_declaration',
  'arrow_function',
  'method_definition',
]);
const SCOPES = new Set([
  ...FUNCTIONS,
  'program',
  'statement_block',
  'for_statement',
  'for_in_statement',
  'catch_clause',
  'class_declaration',
  'abstract_class_declaration',
  'class',
  'switch_body',
  'interface_declaration',
  'type_alias_declaration',
  'function_signature',
  'method_signature',
  'abstract_method_signature',
  'call_signature',
  'construct_signature',
  'function_type',
  'constructor_type',
  'index_signature',
  'conditional_type',
]);
const CLASSES = new Set(['class_declaration', 'class', 'abstract_class_declaration', 'interface_declaration']);
const DECLARATIONS: Record<string, string> = {
  function_declaration: 'function',
  generator_function_declaration: 'function',
  function_signature: 'function',
  class_declaration: 'class',
  abstract_class_declaration: 'class',
  interface_declaration: 'interface',
  type_alias_declaration: 'type',
  enum_declaration: 'enum',
  internal_module: 'module',
  module: 'module',
};
/** Generic types a reader sees through to their argument. */
const WRAPPERS = new Set(['Promise', 'Array', 'ReadonlyArray', 'Partial', 'Readonly', 'Required', 'NonNullable', 'Set', 'Iterable']);

export const ecmaRules: LanguageRules = {
  // JavaScript's globals are left to name-only: a repository may declare them itself (`declare global`, a polyfill).
  builtins: new Set(),
  scopes(node) {
    const scopes: SyntaxNode[] = [];
    for (let at = node.parent; at; at = at.parent) if (SCOPES.has(at.type)) scopes.push(at);
    return scopes;
  },

  bindingsIn(scope, name) {
    const found: Binding[] = [];
    const generics = scope.childForFieldName('type_parameters') ?? scope.namedChildren.find((child) => child.type === 'type_parameters');
    for (const parameter of generics?.namedChildren ?? []) {
      const id = parameter.childForFieldName('name') ?? parameter.namedChildren[0];
      if (id?.text === name) found.push({ name: id, kind: 'type parameter' });
    }
    // `[K in keyof T]`, `T extends infer U ? U : …`
    const mapped =
      scope.type === 'index_signature' ? scope.namedChildren.find((child) => child.type === 'mapped_type_clause')?.childForFieldName('name') : null;
    if (mapped?.text === name) found.push({ name: mapped, kind: 'type parameter' });
    if (scope.type === 'conditional_type') {
      for (const inferred of scope.descendantsOfType('infer_type'))
        if (inferred.namedChildren[0]?.text === name) found.push({ name: inferred.namedChildren[0]!, kind: 'type parameter' });
    }
    if (found.length > 0) return found;
    if (FUNCTIONS.has(scope.type)) {
      const own = scope.childForFieldName('name');
      if (own?.text === name && scope.type !== 'method_definition' && scope.type !== 'function_declaration') found.push({ name: own, kind: 'function' });
      const single = scope.childForFieldName('parameter');
      if (single?.text === name) found.push({ name: single, kind: 'parameter' });
      const parameters = scope.childForFieldName('parameters');
      if (parameters) for (const parameter of parameters.namedChildren) parameterBinding(parameter, name, found);
      const body = scope.childForFieldName('body');
      if (body?.type === 'statement_block') hoisted(body, name, found);
      return found;
    }
    if (scope.type === 'for_statement') {
      const initializer = scope.childForFieldName('initializer');
      if (initializer) declaration(initializer, name, found);
      return found;
    }
    if (scope.type === 'for_in_statement') {
      pattern(scope.childForFieldName('left'), name, 'variable', found);
      return found;
    }
    if (scope.type === 'catch_clause') {
      pattern(scope.childForFieldName('parameter'), name, 'variable', found);
      return found;
    }
    if (CLASSES.has(scope.type)) {
      // A class expression's name is seen inside it.
      const own = scope.childForFieldName('name');
      if (own?.text === name && scope.type === 'class') found.push({ name: own, kind: 'class' });
      return found;
    }
    for (const statement of scope.namedChildren) declaration(statement, name, found);
    return found;
  },

  visible(bindings) {
    return bindings.length > 1 ? [bindings[0]!] : bindings;
  },

  receiverOf(node) {
    const parent = node.parent;
    if (parent?.type === 'member_expression' && parent.childForFieldName('property')?.id === node.id) return parent.childForFieldName('object');
    if (parent?.type === 'nested_type_identifier' && parent.namedChildren.at(-1)?.id === node.id) return parent.namedChildren[0] ?? null;
    return null;
  },

  selfOwner(receiver) {
    if (receiver.type !== 'this') return null;
    for (let at = receiver.parent; at; at = at.parent) {
      if (at.type === 'arrow_function') continue;
      if (at.type === 'method_definition' || at.type === 'public_field_definition') {
        const owner = at.parent?.type === 'class_body' ? at.parent.parent : at.parent;
        return owner && (CLASSES.has(owner.type) || owner.type === 'object') ? owner : null;
      }
      if (FUNCTIONS.has(at.type)) {
        // `Owner.prototype.m = function () { this… }` and `owner.m = function () { this… }`.
        const assigned = at.parent?.type === 'assignment_expression' ? at.parent.childForFieldName('left') : null;
        if (assigned?.type !== 'member_expression') return null;
        const object = assigned.childForFieldName('object')!;
        return object.type === 'member_expression' && object.childForFieldName('property')?.text === 'prototype' ? object.childForFieldName('object') : object;
      }
      if (CLASSES.has(at.type)) return at;
    }
    return null;
  },

  superOwner(receiver) {
    if (receiver.type !== 'super') return null;
    for (let at = receiver.parent; at; at = at.parent) if (CLASSES.has(at.type)) return at;
    return null;
  },

  constructed(expression) {
    return expression.type === 'new_expression' ? expression.childForFieldName('constructor') : null;
  },

  namedType(type) {
    let node: SyntaxNode | null = type.type === 'type_annotation' ? (type.namedChildren[0] ?? null) : type;
    while (node) {
      if (node.type === 'type_identifier' || node.type === 'identifier' || node.type === 'nested_type_identifier') return node;
      if (node.type === 'generic_type') {
        const head = node.childForFieldName('name') ?? node.namedChildren[0]!;
        if (!WRAPPERS.has(head.text)) return head;
        node = node.childForFieldName('type_arguments')?.namedChildren[0] ?? null;
        continue;
      }
      if (
        node.type === 'union_type' ||
        node.type === 'intersection_type' ||
        node.type === 'parenthesized_type' ||
        node.type === 'array_type' ||
        node.type === 'readonly_type'
      ) {
        node = node.namedChildren.find((part) => !['literal_type', 'predefined_type', 'undefined', 'null'].includes(part.type)) ?? null;
        continue;
      }
      return null;
    }
    return null;
  },

  members(owner, name) {
    const found: Binding[] = [];
    if (owner.type === 'object_type' || owner.type === 'intersection_type') {
      const parts = owner.type === 'object_type' ? [owner] : owner.namedChildren.filter((part) => part.type === 'object_type');
      for (const part of parts) {
        for (const entry of part.namedChildren) {
          const key = entry.childForFieldName('name');
          if (key?.text === name)
            found.push({
              name: key,
              kind: entry.type === 'method_signature' ? 'method' : 'property',
              ...(entry.childForFieldName('type') ? { type: entry.childForFieldName('type')! } : {}),
            });
        }
      }
      return found;
    }
    if (owner.type === 'object') {
      for (const entry of owner.namedChildren) {
        const key = entry.type === 'shorthand_property_identifier' ? entry : (entry.childForFieldName('key') ?? entry.childForFieldName('name'));
        if (key?.text !== name) continue;
        const binding: Binding = { name: key, kind: entry.type === 'method_definition' ? 'method' : 'property' };
        // What the member holds: `{ program }` and `{ a: b.c }` alias a value, `{ a: new A() }` constructs one.
        const value = entry.type === 'shorthand_property_identifier' ? entry : entry.type === 'pair' ? entry.childForFieldName('value') : null;
        if (value?.type === 'new_expression' || value?.type === 'call_expression') binding.type = value;
        else if (value && ['identifier', 'shorthand_property_identifier', 'member_expression'].includes(value.type)) binding.alias = value;
        found.push(binding);
      }
      return found;
    }
    if (!CLASSES.has(owner.type)) return assignedMembers(owner, name);
    const body = owner.childForFieldName('body');
    for (const member of body?.namedChildren ?? []) {
      const key = member.childForFieldName('name') ?? member.childForFieldName('property');
      if (key?.text === name) {
        // A getter's value is what it returns.
        const getter = member.type === 'method_definition' && member.children.some((child) => child.type === 'get');
        const type = getter ? member.childForFieldName('return_type') : member.childForFieldName('type');
        const value = member.childForFieldName('value');
        found.push({
          name: key,
          kind: /method/.test(member.type) ? 'method' : 'property',
          ...(type ? { type } : value?.type === 'new_expression' ? { type: value } : {}),
        });
      }
      // Parameter properties: `constructor(private readonly name: T)`.
      if (member.type === 'method_definition' && member.childForFieldName('name')?.text === 'constructor') {
        for (const parameter of member.childForFieldName('parameters')?.namedChildren ?? []) {
          const id = parameter.childForFieldName('pattern');
          const type = parameter.childForFieldName('type');
          if (id?.text === name && parameter.namedChildren.some((child) => child.type === 'accessibility_modifier' || child.text === 'readonly')) {
            found.push({ name: id, kind: 'property', ...(type ? { type } : {}) });
          }
        }
      }
    }
    return found;
  },

  returned(declaration) {
    const fn = FUNCTIONS.has(declaration.type) ? declaration : declaration.childForFieldName('value');
    const body = fn && FUNCTIONS.has(fn.type) ? fn.childForFieldName('body') : null;
    if (!body) return null;
    return body.type === 'statement_block' ? firstReturned(body, (type) => FUNCTIONS.has(type) || CLASSES.has(type)) : body;
  },

  bases(owner) {
    const bases: SyntaxNode[] = [];
    for (const child of owner.namedChildren) {
      if (child.type === 'class_heritage') {
        for (const clause of child.namedChildren)
          for (const base of clause.namedChildren) if (base.type !== 'type_arguments') bases.push(base.type === 'generic_type' ? base.namedChildren[0]! : base);
      } else if (child.type === 'extends_type_clause') {
        for (const base of child.namedChildren) bases.push(base.type === 'generic_type' ? base.namedChildren[0]! : base);
      }
    }
    return bases;
  },

  isClass(node) {
    return CLASSES.has(node.type);
  },

  importedAt(node) {
    const specifier = node.parent;
    if (specifier?.type !== 'import_specifier' && specifier?.type !== 'export_specifier') return null;
    let statement: SyntaxNode | null = specifier;
    while (statement && statement.type !== 'import_statement' && statement.type !== 'export_statement') statement = statement.parent;
    const source = statement?.childForFieldName('source');
    const taken = specifier.childForFieldName('name');
    return source && taken ? { module: stringValue(source), name: taken.text } : null;
  },

  wildcards(root) {
    const modules: string[] = [];
    for (const statement of root.namedChildren) {
      const source = statement.childForFieldName('source');
      if (
        statement.type === 'export_statement' &&
        source &&
        statement.children.some((child) => child.type === '*') &&
        !statement.namedChildren.some((child) => child.type === 'namespace_export')
      ) {
        modules.push(stringValue(source));
      }
    }
    return modules;
  },

  exported(root, name) {
    const found: Binding[] = [];
    let exports = false;
    for (const statement of root.namedChildren) {
      if (statement.type === 'export_statement') {
        exports = true;
        // `export = x`: x is what the module gives whole; a namespace of that name gives its own exports.
        const whole = statement.children[1]?.type === '=' ? statement.namedChildren[0] : null;
        const declared = whole?.type === 'identifier' ? ecmaRules.bindingsIn(root, whole.text) : [];
        const body = declared.find((binding) => binding.kind === 'module')?.name.parent?.childForFieldName('body');
        if (whole && name === 'default') found.push(...declared);
        else if (body) found.push(...ecmaRules.bindingsIn(body, name));
        else exportStatement(statement, name, found);
        continue;
      }
      const assignment = statement.type === 'expression_statement' ? statement.namedChildren[0] : null;
      if (assignment?.type !== 'assignment_expression') continue;
      // `exports = module.exports = value`: every target of the chain, one value.
      const targets: SyntaxNode[] = [];
      let value: SyntaxNode | null = assignment;
      while (value?.type === 'assignment_expression') {
        targets.push(value.childForFieldName('left')!);
        value = value.childForFieldName('right');
      }
      if (!value) continue;
      for (const target of targets) {
        const objectText = target.type === 'member_expression' ? target.childForFieldName('object')?.text : undefined;
        if (objectText !== undefined && /^(module\.)?exports$/.test(objectText)) {
          exports = true;
          if (target.childForFieldName('property')?.text === name) found.push(valueBinding(target.childForFieldName('property')!, value));
        } else if (target.text === 'module.exports') {
          exports = true;
          if (name === 'default') found.push(valueBinding(target, value));
          else if (value.type === 'object') found.push(...ecmaRules.members(value, name));
        }
      }
    }
    if (exports) return found;
    // A script or an ambient declaration file: its top-level names are what it gives.
    const bindings = ecmaRules.bindingsIn(root, name);
    return bindings.length > 0 ? [bindings[0]!] : [];
  },
};

/** The member a name bound directly in an object pattern takes (`{ a }` → a, `{ a: x }` → a); null when nested deeper. */
function destructured(bound: SyntaxNode, pattern: SyntaxNode): string | null {
  if (bound.type === 'shorthand_property_identifier_pattern' && bound.parent?.id === pattern.id) return bound.text;
  const pair = bound.parent?.type === 'pair_pattern' ? bound.parent : null;
  return pair?.parent?.id === pattern.id && pair.childForFieldName('value')?.id === bound.id ? (pair.childForFieldName('key')?.text ?? null) : null;
}

function parameterBinding(parameter: SyntaxNode, name: string, found: Binding[]): void {
  if (parameter.type === 'required_parameter' || parameter.type === 'optional_parameter') {
    const type = parameter.childForFieldName('type');
    const before = found.length;
    pattern(parameter.childForFieldName('pattern'), name, 'parameter', found);
    if (type) for (const binding of found.slice(before)) binding.type = type;
    return;
  }
  pattern(parameter, name, 'parameter', found);
}

/** `var` and function declarations anywhere in a function body, nested functions aside. */
function hoisted(node: SyntaxNode, name: string, found: Binding[]): void {
  for (const child of node.namedChildren) {
    if (FUNCTIONS.has(child.type) || CLASSES.has(child.type)) continue;
    if (child.type === 'variable_declaration') declaration(child, name, found);
    else if (child.type !== 'lexical_declaration') hoisted(child, name, found);
  }
}

function declaration(node: SyntaxNode, name: string, found: Binding[]): void {
  // A statement that binds the name holds its text: the many that do not are passed over without a walk of their nodes.
  if (!node.text.includes(name)) return;
  switch (node.type) {
    case 'lexical_declaration':
    case 'variable_declaration':
      for (const declarator of node.namedChildren) {
        if (declarator.type !== 'variable_declarator') continue;
        const id = declarator.childForFieldName('name');
        const value = declarator.childForFieldName('value');
        const type = declarator.childForFieldName('type');
        const required = value && requiredModule(value);
        if (required && id?.type === 'identifier') {
          if (id.text === name)
            found.push({ name: id, kind: 'import', import: required.name === null ? { module: required.module, name: 'default', require: true } : required });
          continue;
        }
        if (required && id?.type === 'object_pattern' && required.name === null) {
          for (const part of id.namedChildren) {
            const local = part.type === 'pair_pattern' ? part.childForFieldName('value') : part;
            const taken = part.type === 'pair_pattern' ? part.childForFieldName('key') : part;
            if (local?.text === name && taken) found.push({ name: local, kind: 'import', import: { module: required.module, name: taken.text } });
          }
          continue;
        }
        const before = found.length;
        pattern(id, name, 'variable', found);
        for (const binding of found.slice(before)) {
          const taken = id?.type === 'object_pattern' && !type ? destructured(binding.name, id) : null;
          if (taken && value) {
            const call = value.type === 'await_expression' ? value.namedChildren[0] : value;
            if (call?.type === 'new_expression' || call?.type === 'call_expression') Object.assign(binding, { type: call, member: taken });
          } else if (type) binding.type = type;
          else if (value?.type === 'new_expression' || value?.type === 'call_expression') binding.type = value;
          else if (value?.type === 'await_expression' && value.namedChildren[0]?.type === 'call_expression') binding.type = value.namedChildren[0];
          else if (value && id?.type === 'identifier' && (value.type === 'identifier' || value.type === 'member_expression')) binding.alias = value;
        }
      }
      return;
    case 'import_statement': {
      const source = node.childForFieldName('source');
      const clause = node.namedChildren.find((child) => child.type === 'import_clause');
      if (!source || !clause) return;
      const before = found.length;
      const module = '';
      for (const part of clause.namedChildren) {
        if (part.type === 'identifier' && part.text === name) found.push({ name: part, kind: 'import', import: { module, name: 'default' } });
        if (part.type === 'namespace_import' && part.namedChildren[0]?.text === name)
          found.push({ name: part.namedChildren[0]!, kind: 'import', import: { module, name: null } });
        if (part.type === 'named_imports') {
          for (const specifier of part.namedChildren) {
            const taken = specifier.childForFieldName('name');
            const local = specifier.childForFieldName('alias') ?? taken;
            if (local?.text === name && taken) found.push({ name: local, kind: 'import', import: { module, name: taken.text } });
          }
        }
      }
      // `import x = require('m')`
      const required = node.namedChildren.find((child) => child.type === 'import_require_clause');
      if (required?.namedChildren[0]?.text === name) found.push({ name: required.namedChildren[0]!, kind: 'import', import: { module, name: null } });
      // The module's text is read for a statement that binds the name alone: a file's imports are many.
      for (const binding of found.slice(before)) binding.import!.module = stringValue(source);
      return;
    }
    case 'export_statement': {
      const inner =
        node.childForFieldName('declaration') ?? node.namedChildren.find((child) => child.type in DECLARATIONS || child.type.endsWith('declaration'));
      if (inner) declaration(inner, name, found);
      return;
    }
    case 'ambient_declaration':
      for (const child of node.namedChildren) declaration(child, name, found);
      return;
    case 'expression_statement': {
      const inner = node.namedChildren[0];
      if (inner && (inner.type === 'internal_module' || inner.type === 'module')) declaration(inner, name, found);
      return;
    }
  }
  const kind = DECLARATIONS[node.type];
  const id = node.childForFieldName('name');
  if (kind && id?.text === name) found.push({ name: id, kind });
}

/** `require('m')` → the module; `require('m').x` → its name x. */
function requiredModule(value: SyntaxNode): { module: string; name: string | null } | null {
  if (value.type === 'member_expression') {
    const inner = requiredModule(value.childForFieldName('object')!);
    return inner && inner.name === null ? { module: inner.module, name: value.childForFieldName('property')!.text } : null;
  }
  if (value.type !== 'call_expression' || value.childForFieldName('function')?.text !== 'require') return null;
  const argument = value.childForFieldName('arguments')?.namedChildren[0];
  return argument?.type === 'string' ? { module: stringValue(argument), name: null } : null;
}

function pattern(node: SyntaxNode | null, name: string, kind: string, found: Binding[]): void {
  if (!node) return;
  switch (node.type) {
    case 'identifier':
    case 'shorthand_property_identifier_pattern':
      if (node.text === name) found.push({ name: node, kind });
      return;
    case 'assignment_pattern':
    case 'object_assignment_pattern':
      pattern(node.childForFieldName('left') ?? node.namedChildren[0]!, name, kind, found);
      return;
    case 'pair_pattern':
      pattern(node.childForFieldName('value'), name, kind, found);
      return;
    case 'object_pattern':
    case 'array_pattern':
    case 'rest_pattern':
      for (const part of node.namedChildren) pattern(part, name, kind, found);
      return;
  }
}

/** Members given to an object by assignment in its file: `owner.name = …`, `Owner.prototype.name = …`. */
function assignedMembers(owner: SyntaxNode, name: string): Binding[] {
  const found: Binding[] = [];
  const ownerText = owner.text;
  let root = owner;
  while (root.parent) root = root.parent;
  for (const statement of root.namedChildren) {
    const assignment = statement.type === 'expression_statement' ? statement.namedChildren[0] : null;
    if (assignment?.type !== 'assignment_expression') continue;
    const left = assignment.childForFieldName('left');
    if (left?.type !== 'member_expression' || left.childForFieldName('property')?.text !== name) continue;
    const object = left.childForFieldName('object')!;
    const target =
      object.type === 'member_expression' && object.childForFieldName('property')?.text === 'prototype' ? object.childForFieldName('object')! : object;
    if (target.text === ownerText) found.push({ name: left.childForFieldName('property')!, kind: 'property' });
  }
  return found;
}

/** A module's binding for an exported value: a local name's alias, a re-export, or the value's own node. */
function valueBinding(name: SyntaxNode, value: SyntaxNode): Binding {
  const required = requiredModule(value);
  if (required) return { name, kind: 'import', import: required.name === null ? { module: required.module, name: 'default', require: true } : required };
  if (value.type === 'identifier') return { name, kind: 'export', alias: value };
  const own = value.childForFieldName('name');
  return { name: own ?? name, kind: value.type.includes('class') ? 'class' : value.type.includes('function') ? 'function' : 'export' };
}

function exportStatement(statement: SyntaxNode, name: string, found: Binding[]): void {
  const source = statement.childForFieldName('source');
  const isDefault = statement.children.some((child) => child.type === 'default');
  if (isDefault) {
    if (name !== 'default') return;
    const declaration = statement.childForFieldName('declaration');
    const value = statement.childForFieldName('value');
    if (declaration) found.push({ name: declaration.childForFieldName('name') ?? declaration, kind: DECLARATIONS[declaration.type] ?? 'export' });
    else if (value) found.push(valueBinding(value, value));
    return;
  }
  const declared = statement.childForFieldName('declaration');
  if (declared) {
    declaration(declared, name, found);
    return;
  }
  for (const clause of statement.namedChildren) {
    if (clause.type !== 'export_clause') continue;
    for (const specifier of clause.namedChildren) {
      const local = specifier.childForFieldName('name');
      const alias = specifier.childForFieldName('alias');
      if ((alias ?? local)?.text !== name || !local) continue;
      if (source) found.push({ name: alias ?? local, kind: 'import', import: { module: stringValue(source), name: local.text } });
      else found.push({ name: alias ?? local, kind: 'export', alias: local });
    }
  }
}
