import { type Binding, firstReturned, type LanguageRules, type SyntaxNode } from './atSyntax.js';

/** Python's scopes and bindings for `at`: functions, lambdas and comprehensions are scopes, blocks are not. */

const SCOPES = new Set([
  'module',
  'function_definition',
  'lambda',
  'class_definition',
  'list_comprehension',
  'set_comprehension',
  'dictionary_comprehension',
  'generator_expression',
]);
const NESTED = new Set([
  'function_definition',
  'class_definition',
  'lambda',
  'list_comprehension',
  'set_comprehension',
  'dictionary_comprehension',
  'generator_expression',
  'decorated_definition',
]);
/** Annotations that wrap the type a reader means. */
const WRAPPERS = new Set([
  'Optional',
  'Union',
  'Type',
  'type',
  'List',
  'list',
  'Sequence',
  'Iterable',
  'Iterator',
  'AsyncIterator',
  'Generator',
  'AsyncGenerator',
  'Awaitable',
  'Coroutine',
  'ContextManager',
  'AsyncContextManager',
  'Final',
  'ClassVar',
  'Annotated',
  'None',
]);
/** A type's own name: `typing.Optional` is `Optional`. */
const wrapper = (node: SyntaxNode): boolean => WRAPPERS.has(node.text.slice(node.text.lastIndexOf('.') + 1));

/** The names of Python's `builtins` module (3.11), as jedi answers them: outside the repository. */
const BUILTINS: ReadonlySet<string> = new Set(
  [
    'ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError BrokenPipeError',
    'BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError',
    'ConnectionResetError DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception',
    'ExceptionGroup False FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError',
    'ImportError ImportWarning IndentationError IndexError InterruptedError IsADirectoryError KeyError',
    'KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError None NotADirectoryError NotImplemented',
    'NotImplementedError OSError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError',
    'RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration',
    'SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError True TypeError UnboundLocalError',
    'UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError',
    'Warning ZeroDivisionError abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr',
    'classmethod compile complex copyright credits delattr dict dir divmod enumerate eval exec exit filter float',
    'format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len license',
    'list locals map max memoryview min next object oct open ord pow print property quit range repr reversed round',
    'set setattr slice sorted staticmethod str sum super tuple type vars zip',
  ]
    .join(' ')
    .split(' '),
);

export const pythonRules: LanguageRules = {
  builtins: BUILTINS,
  scopes(node) {
    const scopes: SyntaxNode[] = [];
    let child = node;
    for (let at = node.parent; at; child = at, at = at.parent) {
      if (!SCOPES.has(at.type)) continue;
      // A class body's names are seen by its own statements, not by the functions in it; a
      // function's defaults and decorators belong to the scope around it.
      if (at.type === 'class_definition' && (scopes.length > 0 || child.id !== at.childForFieldName('body')?.id)) continue;
      if (at.type === 'function_definition' && child.id !== at.childForFieldName('body')?.id && child.id !== at.childForFieldName('parameters')?.id) continue;
      scopes.push(at);
    }
    return scopes;
  },

  bindingsIn(scope, name) {
    const found: Binding[] = [];
    if (scope.type === 'function_definition' || scope.type === 'lambda') {
      const parameters = scope.childForFieldName('parameters');
      if (parameters) for (const parameter of parameters.namedChildren) parameterBinding(parameter, name, found);
    }
    if (scope.type.endsWith('comprehension') || scope.type === 'generator_expression') {
      for (const clause of scope.namedChildren) if (clause.type === 'for_in_clause') targets(clause.childForFieldName('left'), name, 'variable', found);
      return found;
    }
    const body = scope.type === 'module' ? scope : scope.childForFieldName('body');
    if (body) statements(body, name, found);
    return found;
  },

  visible(bindings, scope, use) {
    if (bindings.length <= 1) return bindings;
    // In its own scope a name is what the last binding before the use made it; from an inner
    // scope or another module, what the scope ends with (functions run after their module).
    const reachable = bindings.filter((binding) => !typeCheckerSkips(binding.name));
    if (reachable.length > 0) bindings = reachable;
    const own = pythonRules.scopes(use)[0]?.id === scope.id;
    if (!own) return [bindings.at(-1)!];
    const before = bindings.filter((binding) => binding.name.startIndex < use.startIndex && !encloses(statementOf(binding.name), use));
    return before.length > 0 ? [before.at(-1)!] : [bindings[0]!];
  },

  receiverOf(node) {
    const parent = node.parent;
    return parent?.type === 'attribute' && parent.childForFieldName('attribute')?.id === node.id ? parent.childForFieldName('object') : null;
  },

  selfOwner(receiver) {
    if (receiver.type !== 'identifier') return null;
    const method = enclosingMethod(receiver);
    if (!method) return null;
    const first = method.childForFieldName('parameters')?.namedChildren[0];
    const firstName = first && (first.type === 'identifier' ? first : (first.childForFieldName('name') ?? first.namedChildren[0]));
    return firstName?.text === receiver.text ? classOfMethod(method) : null;
  },

  superOwner(receiver) {
    if (receiver.type !== 'call' || receiver.childForFieldName('function')?.text !== 'super') return null;
    const method = enclosingMethod(receiver);
    return method ? classOfMethod(method) : null;
  },

  constructed(expression) {
    // `Foo(…)`: whether Foo is a class is for the caller to find out.
    return expression.type === 'call' ? expression.childForFieldName('function') : null;
  },

  namedType(type) {
    let node: SyntaxNode | null = type.type === 'type' ? (type.namedChildren[0] ?? null) : type;
    while (node) {
      if (node.type === 'identifier' || node.type === 'attribute') return wrapper(node) ? null : node;
      if (node.type === 'string') return null;
      if (node.type === 'generic_type' || node.type === 'subscript') {
        const head = node.namedChildren[0];
        if (head && !wrapper(head)) return head;
        node = node.namedChildren.slice(1).find((part) => part.type !== 'none') ?? null;
        if (node?.type === 'type_parameter') node = node.namedChildren[0] ?? null;
        if (node?.type === 'type') node = node.namedChildren[0] ?? null;
        continue;
      }
      if (node.type === 'binary_operator') {
        node = [node.childForFieldName('left'), node.childForFieldName('right')].find((side) => side && side.type !== 'none' && side.text !== 'None') ?? null;
        continue;
      }
      if (node.type === 'type') {
        node = node.namedChildren[0] ?? null;
        continue;
      }
      return null;
    }
    return null;
  },

  members(owner, name) {
    const found: Binding[] = [];
    const body = owner.childForFieldName('body');
    if (!body) return found;
    statements(body, name, found);
    const declared = found.filter((binding) => binding.kind === 'annotation');
    // The class ends with its last binding of the name (an @overload's implementation).
    found.splice(0, found.length, ...found.filter((binding) => binding.kind !== 'annotation').reverse());
    // Attributes set on the instance in the class's methods: `self.name = …`.
    for (const statement of body.namedChildren) {
      const method = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
      if (method?.type !== 'function_definition') continue;
      const first = method.childForFieldName('parameters')?.namedChildren[0];
      const self = first && (first.type === 'identifier' ? first.text : first.childForFieldName('name')?.text);
      const methodBody = method.childForFieldName('body');
      if (self && methodBody) instanceAttributes(methodBody, self, name, found);
    }
    return [...found, ...declared];
  },

  returned(declaration) {
    const body = declaration.type === 'function_definition' ? declaration.childForFieldName('body') : null;
    return body ? firstReturned(body, (type) => NESTED.has(type)) : null;
  },

  bases(owner) {
    const list = owner.childForFieldName('superclasses');
    const bases = (list?.namedChildren ?? []).map((base) => (base.type === 'subscript' ? base.childForFieldName('value')! : base));
    return bases.filter((base) => base.type === 'identifier' || base.type === 'attribute');
  },

  isClass(node) {
    return node.type === 'class_definition';
  },

  importedAt(node) {
    const dotted = node.parent?.type === 'dotted_name' ? node.parent : null;
    if (!dotted) return null;
    const holder = dotted.parent?.type === 'aliased_import' ? dotted.parent.parent : dotted.parent;
    // The module as written up to this name: `import a.b.c` at `b` is `a.b`.
    const prefix = dotted.text.slice(0, node.endIndex - dotted.startIndex);
    if (holder?.type === 'import_statement') return { module: prefix, name: null };
    if (holder?.type !== 'import_from_statement') return null;
    const module = holder.childForFieldName('module_name');
    if (module && module.startIndex <= dotted.startIndex && dotted.endIndex <= module.endIndex) {
      return { module: module.text.slice(0, node.endIndex - module.startIndex), name: null };
    }
    return { module: module?.text ?? '', name: dotted.text };
  },

  wildcards(root) {
    const modules: string[] = [];
    for (const statement of root.namedChildren) {
      if (statement.type === 'import_from_statement' && statement.namedChildren.some((child) => child.type === 'wildcard_import')) {
        const module = statement.childForFieldName('module_name');
        if (module) modules.push(module.text);
      }
    }
    return modules;
  },

  exported(root, name) {
    const bindings = pythonRules.bindingsIn(root, name);
    return bindings.length > 0 ? pythonRules.visible(bindings, root, root) : [];
  },
};

/** Under `if TYPE_CHECKING: … else: …` a type checker reads the first branch only. */
function typeCheckerSkips(node: SyntaxNode): boolean {
  for (let at = node.parent; at; at = at.parent) {
    if ((at.type === 'else_clause' || at.type === 'elif_clause') && /TYPE_CHECKING$/.test(at.parent?.childForFieldName('condition')?.text ?? '')) return true;
    if (at.type === 'function_definition' || at.type === 'class_definition') return false;
  }
  return false;
}

function encloses(outer: SyntaxNode, inner: SyntaxNode): boolean {
  return outer.startIndex <= inner.startIndex && inner.endIndex <= outer.endIndex;
}

/** The assignment a bound name is the target of (itself when none): a use inside it sees the binding before it. */
function statementOf(node: SyntaxNode): SyntaxNode {
  let at = node;
  while (at.parent && ['pattern_list', 'tuple_pattern', 'list_pattern', 'assignment', 'named_expression'].includes(at.parent.type)) at = at.parent;
  return at;
}

function enclosingMethod(node: SyntaxNode): SyntaxNode | null {
  for (let at = node.parent; at; at = at.parent) {
    if (at.type === 'function_definition') return classOfMethod(at) ? at : null;
    if (at.type === 'class_definition') return null;
  }
  return null;
}

function classOfMethod(method: SyntaxNode): SyntaxNode | null {
  let holder = method.parent;
  if (holder?.type === 'decorated_definition') holder = holder.parent;
  return holder?.type === 'block' && holder.parent?.type === 'class_definition' ? holder.parent : null;
}

function parameterBinding(parameter: SyntaxNode, name: string, found: Binding[]): void {
  switch (parameter.type) {
    case 'identifier':
      if (parameter.text === name) found.push({ name: parameter, kind: 'parameter' });
      return;
    case 'typed_parameter':
    case 'list_splat_pattern':
    case 'dictionary_splat_pattern': {
      const id = parameter.namedChildren.find((child) => child.type === 'identifier') ?? parameter.namedChildren[0]?.namedChildren[0];
      const type = parameter.childForFieldName('type');
      if (id?.text === name) found.push({ name: id, kind: 'parameter', ...(type ? { type } : {}) });
      return;
    }
    case 'default_parameter':
    case 'typed_default_parameter': {
      const id = parameter.childForFieldName('name');
      const type = parameter.childForFieldName('type');
      if (id?.text === name) found.push({ name: id, kind: 'parameter', ...(type ? { type } : {}) });
      return;
    }
  }
}

/** The bindings of a block's statements, compound statements entered, nested scopes not. */
function statements(block: SyntaxNode, name: string, found: Binding[]): void {
  for (const statement of block.namedChildren) statement_(statement, name, found);
}

function statement_(node: SyntaxNode, name: string, found: Binding[]): void {
  switch (node.type) {
    case 'function_definition':
    case 'class_definition': {
      const id = node.childForFieldName('name');
      if (id?.text === name) found.push({ name: id, kind: node.type === 'class_definition' ? 'class' : 'function' });
      return;
    }
    case 'decorated_definition': {
      const definition = node.childForFieldName('definition');
      if (definition) statement_(definition, name, found);
      return;
    }
    case 'expression_statement':
      for (const child of node.namedChildren) if (child.type === 'assignment') assignment(child, name, found);
      return;
    case 'import_statement':
      for (const entry of node.namedChildren) {
        if (entry.type === 'dotted_name' && entry.namedChildren[0]?.text === name) {
          found.push({ name: entry.namedChildren[0]!, kind: 'import', import: { module: entry.namedChildren.length === 1 ? entry.text : name, name: null } });
        } else if (entry.type === 'aliased_import' && entry.childForFieldName('alias')?.text === name) {
          found.push({ name: entry.childForFieldName('alias')!, kind: 'import', import: { module: entry.childForFieldName('name')!.text, name: null } });
        }
      }
      return;
    case 'import_from_statement': {
      const module = node.childForFieldName('module_name')?.text ?? '';
      for (const entry of node.childrenForFieldName('name')) {
        if (entry.type === 'dotted_name' && entry.text === name) found.push({ name: entry, kind: 'import', import: { module, name } });
        else if (entry.type === 'aliased_import' && entry.childForFieldName('alias')?.text === name) {
          found.push({ name: entry.childForFieldName('alias')!, kind: 'import', import: { module, name: entry.childForFieldName('name')!.text } });
        }
      }
      return;
    }
    case 'for_statement':
      targets(node.childForFieldName('left'), name, 'variable', found);
      break;
    case 'with_statement':
      for (const clause of node.namedChildren) {
        if (clause.type !== 'with_clause') continue;
        for (const item of clause.namedChildren) {
          const value = item.childForFieldName('value');
          if (value?.type !== 'as_pattern') continue;
          const before = found.length;
          targets(value.childForFieldName('alias')?.namedChildren[0] ?? null, name, 'variable', found);
          // `with Client() as client`: a context manager most often enters as itself.
          const entered = value.namedChildren[0];
          if (entered?.type === 'call') for (const binding of found.slice(before)) binding.type = entered;
        }
      }
      break;
    case 'except_clause': {
      const value = node.namedChildren[0];
      if (value?.type === 'as_pattern') targets(value.childForFieldName('alias')?.namedChildren[0] ?? null, name, 'variable', found);
      break;
    }
  }
  if (NESTED.has(node.type)) return;
  for (const child of node.namedChildren) {
    if (child.type === 'block' || /clause$/.test(child.type)) statement_(child, name, found);
    else walrus(child, name, found);
  }
  if (node.type === 'block') statements(node, name, found);
}

function assignment(node: SyntaxNode, name: string, found: Binding[]): void {
  const left = node.childForFieldName('left');
  let right = node.childForFieldName('right');
  if (right?.type === 'await') right = right.namedChildren[0] ?? null;
  const before = found.length;
  // `x: T` binds nothing at run time: it states a type, listed after the bindings that assign.
  targets(left, name, right ? 'variable' : 'annotation', found);
  const type = node.childForFieldName('type');
  for (const binding of found.slice(before)) {
    if (type) binding.type = type;
    else if (right?.type === 'call') binding.type = right;
    else if (right && left?.type === 'identifier' && (right.type === 'identifier' || right.type === 'attribute')) binding.alias = right;
  }
  // `a = b = value`
  if (right?.type === 'assignment') assignment(right, name, found);
}

function targets(node: SyntaxNode | null, name: string, kind: string, found: Binding[]): void {
  if (!node) return;
  if (node.type === 'identifier') {
    if (node.text === name) found.push({ name: node, kind });
    return;
  }
  if (['pattern_list', 'tuple_pattern', 'list_pattern', 'tuple', 'list', 'list_splat_pattern', 'parenthesized_expression'].includes(node.type)) {
    for (const part of node.namedChildren) targets(part, name, kind, found);
  }
}

function instanceAttributes(body: SyntaxNode, self: string, name: string, found: Binding[]): void {
  // The assignments found by tree-sitter's own walk, in document order: a walk of every node of a
  // large class through the binding took most of a lookup's time (a Django model, 10 ms).
  for (const assignment of body.descendantsOfType('assignment')) {
    const left = assignment.childForFieldName('left');
    if (left?.type !== 'attribute' || left.childForFieldName('attribute')?.text !== name || left.childForFieldName('object')?.text !== self) continue;
    if (insideNested(assignment, body)) continue;
    const type = assignment.childForFieldName('type');
    const right = assignment.childForFieldName('right');
    found.push({ name: left.childForFieldName('attribute')!, kind: 'attribute', ...(type ? { type } : right?.type === 'call' ? { type: right } : {}) });
  }
}

/** Whether a scope of its own (a nested function, class, lambda, comprehension) lies between `node` and `body`. */
function insideNested(node: SyntaxNode, body: SyntaxNode): boolean {
  for (let up = node.parent; up && up.id !== body.id; up = up.parent) if (NESTED.has(up.type)) return true;
  return false;
}

/** `(name := value)` in an expression, nested scopes aside. */
function walrus(node: SyntaxNode, name: string, found: Binding[]): void {
  if (NESTED.has(node.type)) return;
  if (node.type === 'named_expression') {
    const id = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    if (id?.text === name) found.push({ name: id, kind: 'variable', ...(value?.type === 'call' ? { type: value } : {}) });
  }
  for (const child of node.namedChildren) walrus(child, name, found);
}
