import type { SyntaxNode } from './atSyntax.js';

/**
 * Which of a function's overloads a JavaScript or TypeScript call takes, as TypeScript picks one:
 * the first whose parameters accept the call's arguments, judged by their number and by what the
 * literal arguments are (a function, a string, a number, a boolean, an object, an array, `null`)
 * against what the parameter types plainly say. A type this cannot read (an import, a conditional
 * type) accepts, so a call is never fitted to nothing. `null` is told apart in TypeScript files
 * only, taken as checked strictly (`strict`, `tsc --init`'s default): in JavaScript it fits any type.
 */

type ArgumentKind = 'function' | 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** The same file's declaration a type name names (a type alias's value, an interface); null when none. */
export type TypeLookup = (name: SyntaxNode) => SyntaxNode | null;

/** Declarations of a function or method with parameters of their own. */
export const SIGNATURES: ReadonlySet<string> = new Set([
  'function_signature',
  'function_declaration',
  'method_signature',
  'method_definition',
  'abstract_method_signature',
]);
/** How deep type aliases are followed. */
const MAX_ALIASES = 4;

/** The call whose callee is `node` (`f(…)`, `x.f(…)`, `f<T>(…)`); null otherwise. */
export function callOf(node: SyntaxNode): SyntaxNode | null {
  const callee = node.parent?.type === 'member_expression' && node.parent.childForFieldName('property')?.id === node.id ? node.parent : node;
  const call = callee.parent;
  return call?.type === 'call_expression' && call.childForFieldName('function')?.id === callee.id ? call : null;
}

/** Whether `declaration` (a function or method, or a signature of one) takes `call`'s arguments; null when it is no function. */
export function takesCall(declaration: SyntaxNode, call: SyntaxNode, lookup: TypeLookup, strictNulls: boolean): boolean | null {
  if (!SIGNATURES.has(declaration.type)) return null;
  const parameters = namedParameters(declaration.childForFieldName('parameters'));
  const rest = parameters.findIndex((parameter) => parameter.childForFieldName('pattern')?.type === 'rest_pattern');
  const fixed = rest === -1 ? parameters : parameters.slice(0, rest);
  const required = fixed.filter((parameter) => parameter.type === 'required_parameter' && !parameter.childForFieldName('value')).length;
  const args = (call.childForFieldName('arguments')?.namedChildren ?? []).filter((arg) => arg.type !== 'comment');
  // A spread's count cannot be told.
  if (args.some((arg) => arg.type === 'spread_element')) return true;
  if (args.length < required || (rest === -1 && args.length > fixed.length)) return false;
  const typeParameters = new Set(typeParameterNames(declaration));
  return args.every((arg, at) => {
    const parameter = fixed[at];
    const kind = argumentKind(arg, strictNulls);
    return !parameter || kind === null || accepts(kind, parameter.childForFieldName('type'), typeParameters, lookup, 0);
  });
}

function argumentKind(arg: SyntaxNode, strictNulls: boolean): ArgumentKind | null {
  switch (arg.type) {
    case 'null':
      return strictNulls ? 'null' : null;
    case 'arrow_function':
    case 'function_expression':
    case 'function':
      return 'function';
    case 'string':
    case 'template_string':
      return 'string';
    case 'number':
      return 'number';
    case 'true':
    case 'false':
      return 'boolean';
    case 'object':
      return 'object';
    case 'array':
      return 'array';
    default:
      return null;
  }
}

/** The type parameters in scope of a signature: its own and, for a method, its class's or interface's. */
function typeParameterNames(declaration: SyntaxNode): string[] {
  const names: string[] = [];
  for (let at: SyntaxNode | null = declaration; at; at = at.parent) {
    const list = at.childForFieldName('type_parameters') ?? at.namedChildren.find((child) => child.type === 'type_parameters');
    for (const parameter of list?.namedChildren ?? []) names.push((parameter.childForFieldName('name') ?? parameter.namedChildren[0])?.text ?? '');
    if (at.type.endsWith('_declaration') && at.id !== declaration.id) break;
  }
  return names;
}

/** Whether a parameter of type `type` takes an argument of this kind; true when the type says nothing plain. */
function accepts(kind: ArgumentKind, type: SyntaxNode | null, typeParameters: ReadonlySet<string>, lookup: TypeLookup, depth: number): boolean {
  if (!type || depth > MAX_ALIASES) return true;
  switch (type.type) {
    case 'type_annotation':
    case 'opting_type_annotation':
    case 'parenthesized_type':
    case 'readonly_type':
      return accepts(kind, type.namedChildren[0] ?? null, typeParameters, lookup, depth);
    case 'predefined_type': {
      const name = type.text;
      if (name === 'any' || name === 'unknown') return true;
      if (name === 'object') return kind === 'object' || kind === 'array' || kind === 'function';
      return name === kind;
    }
    case 'literal_type': {
      const literal = type.namedChildren[0];
      return (
        (literal?.type === 'string' && kind === 'string') ||
        (literal?.type === 'number' && kind === 'number') ||
        (/^(true|false)$/.test(literal?.type ?? '') && kind === 'boolean') ||
        (literal?.type === 'null' && kind === 'null')
      );
    }
    case 'template_literal_type':
      return kind === 'string';
    case 'function_type':
    case 'constructor_type':
      return kind === 'function';
    case 'array_type':
    case 'tuple_type':
      return kind === 'array';
    case 'object_type':
      return kind === 'object' || (kind === 'function' && type.namedChildren.some((member) => member.type === 'call_signature'));
    case 'union_type':
      return type.namedChildren.some((part) => accepts(kind, part, typeParameters, lookup, depth));
    case 'intersection_type':
      return type.namedChildren.every((part) => accepts(kind, part, typeParameters, lookup, depth));
    case 'type_identifier':
    case 'generic_type': {
      const name = type.type === 'generic_type' ? (type.childForFieldName('name') ?? type.namedChildren[0]!) : type;
      if (name.type !== 'type_identifier' || typeParameters.has(name.text)) return true;
      const declared = lookup(name);
      if (!declared) return true;
      if (declared.type === 'class_declaration' || declared.type === 'abstract_class_declaration') return kind === 'object';
      if (declared.type === 'enum_declaration') return kind === 'number' || kind === 'string';
      if (declared.type === 'interface_declaration') {
        const body = declared.childForFieldName('body');
        return kind === 'object' || (kind === 'function' && !!body?.namedChildren.some((member) => member.type === 'call_signature'));
      }
      return accepts(kind, declared, typeParameters, lookup, depth + 1);
    }
    default:
      return true;
  }
}

/** A parameter list's parameters, comments and `this` left out. */
export function namedParameters(list: SyntaxNode | null): SyntaxNode[] {
  return (list?.namedChildren ?? []).filter((parameter) => parameter.type !== 'comment' && parameter.childForFieldName('pattern')?.type !== 'this');
}
