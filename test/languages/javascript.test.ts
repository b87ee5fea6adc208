import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { definitionOf, extractFixture, fixtureTags, recordOf, textRecord } from '../support/fixtureTags.js';

const fixture = fileURLToPath(new URL('../../fixtures/languages/javascript', import.meta.url));

describe('JavaScript tags (.js, .jsx, .cjs)', () => {
  test('the fixture yields exactly these tags', () => {
    // Hand-checked against the sources. Of note: `exports.createStore = function createStore`
    // defines the name twice (the assignment and the named function expression, as aider's
    // query does); `require(…)` and `import(…)` are imports, not calls; closing JSX tags and
    // lower-case (HTML) tags are no references; priority.cjs references nothing, so every
    // identifier in it becomes a line −1 reference (aider's fallback).
    expect(fixtureTags(fixture)).toEqual([
      'lib/priority.cjs:6 def function clampPriority',
      'lib/priority.cjs:12 def function priorities',
      'lib/priority.cjs:16 def function isUrgent',
      'lib/priority.cjs:-1 ref identifier PRIORITY_LABELS',
      'lib/priority.cjs:-1 ref identifier clampPriority',
      'lib/priority.cjs:-1 ref identifier priority',
      'lib/priority.cjs:-1 ref identifier priority',
      'lib/priority.cjs:-1 ref identifier priority',
      'lib/priority.cjs:-1 ref identifier priority',
      'lib/priority.cjs:-1 ref identifier priority',
      'lib/priority.cjs:-1 ref identifier priorities',
      'lib/priority.cjs:-1 ref identifier priority',
      'lib/priority.cjs:-1 ref identifier priority',
      'lib/priority.cjs:-1 ref identifier priority',
      'lib/priority.cjs:-1 ref identifier priority',
      'lib/priority.cjs:-1 ref identifier isUrgent',
      'lib/priority.cjs:-1 ref identifier todo',
      'lib/priority.cjs:-1 ref identifier todo',
      'lib/priority.cjs:-1 ref identifier priority',
      'lib/priority.cjs:-1 ref identifier todo',
      'lib/priority.cjs:-1 ref identifier done',
      'lib/priority.cjs:-1 ref identifier module',
      'lib/priority.cjs:-1 ref identifier exports',
      'lib/priority.cjs:-1 ref identifier PRIORITY_LABELS',
      'lib/priority.cjs:-1 ref identifier clampPriority',
      'lib/priority.cjs:-1 ref identifier priorities',
      'lib/priority.cjs:-1 ref identifier isUrgent',
      'lib/store.cjs:7 def class TodoStore',
      'lib/store.cjs:8 def constructor constructor',
      'lib/store.cjs:13 def method size',
      'lib/store.cjs:17 def method add',
      'lib/store.cjs:24 def method toggle',
      'lib/store.cjs:30 def method pending',
      'lib/store.cjs:36 def method fromJSON',
      'lib/store.cjs:43 def function createStore',
      'lib/store.cjs:43 def function createStore',
      'lib/store.cjs:7 ref implementation EventEmitter',
      'lib/store.cjs:18 ref call clampPriority',
      'lib/store.cjs:19 ref call push',
      'lib/store.cjs:20 ref call emit',
      'lib/store.cjs:25 ref call find',
      'lib/store.cjs:27 ref call emit',
      'lib/store.cjs:37 ref new TodoStore',
      'lib/store.cjs:37 ref call parse',
      'lib/store.cjs:44 ref new TodoStore',
      'lib/store.cjs:45 ref call forEach',
      'lib/store.cjs:45 ref call add',
      'src/TodoList.jsx:7 def class ErrorBoundary',
      'src/TodoList.jsx:10 def method getDerivedStateFromError',
      'src/TodoList.jsx:14 def method render',
      'src/TodoList.jsx:19 def function TodoItem',
      'src/TodoList.jsx:26 def function TodoList',
      'src/TodoList.jsx:41 def function loadEditor',
      'src/TodoList.jsx:7 ref implementation Component',
      'src/TodoList.jsx:20 ref call isUrgent',
      'src/TodoList.jsx:21 ref call onToggle',
      'src/TodoList.jsx:27 ref call useTodos',
      'src/TodoList.jsx:29 ref component ErrorBoundary',
      'src/TodoList.jsx:30 ref component Panel',
      'src/TodoList.jsx:32 ref call map',
      'src/TodoList.jsx:33 ref component TodoItem',
      'src/useTodos.js:4 def function useTodos',
      'src/useTodos.js:8 def function onChange',
      'src/useTodos.js:16 def constant api',
      'src/useTodos.js:17 def method load',
      'src/useTodos.js:21 def method save',
      'src/useTodos.js:5 ref call useState',
      'src/useTodos.js:5 ref call pending',
      'src/useTodos.js:7 ref call useEffect',
      'src/useTodos.js:8 ref call setTodos',
      'src/useTodos.js:8 ref call pending',
      'src/useTodos.js:9 ref call on',
      'src/useTodos.js:10 ref call off',
      'src/useTodos.js:18 ref call fetch',
      'src/useTodos.js:19 ref call json',
      'src/useTodos.js:21 ref call fetch',
      'src/useTodos.js:21 ref call stringify',
    ]);
  });

  const records = extractFixture(fixture);

  test('a class keeps its extent, its head as signature and its JSDoc summary', () => {
    const todoStore = definitionOf(recordOf(records, 'lib/store.cjs'), 'TodoStore');
    expect(todoStore).toMatchObject({
      kind: 'class',
      line: 7,
      endLine: 39,
      signature: 'class TodoStore extends EventEmitter',
      doc: 'Keeps todos in memory and tells listeners when they change.',
    });
  });

  test('a method shows the headers of its class and of itself, as grep-ast would', () => {
    const add = definitionOf(recordOf(records, 'lib/store.cjs'), 'add', { kind: 'method' });
    expect(add.signature).toBe('add(title, priority)');
    expect(add.endLine).toBe(22);
    // The class header is cut at ten lines (7–16); the method's own header runs to line 21.
    expect(add.scopeLines).toEqual([7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
  });

  test('arrow functions, generators and class fields read as written', () => {
    const store = recordOf(records, 'lib/store.cjs');
    expect(definitionOf(store, 'toggle')).toMatchObject({ kind: 'method', line: 24, endLine: 28, signature: 'toggle = (id) =>' });
    expect(definitionOf(store, 'pending')).toMatchObject({ kind: 'method', signature: '*pending()' });
    const priority = recordOf(records, 'lib/priority.cjs');
    expect(definitionOf(priority, 'priorities')).toMatchObject({ signature: 'function* priorities()', doc: 'Every priority, lowest first.' });
    expect(definitionOf(priority, 'isUrgent').signature).toBe('const isUrgent = (todo) =>');
  });

  test('doc comments: a JSDoc block and a line comment above an export', () => {
    expect(definitionOf(recordOf(records, 'lib/priority.cjs'), 'clampPriority').doc).toBe('Keeps a priority within 1..3; a todo without one is normal (2).');
    expect(definitionOf(recordOf(records, 'src/useTodos.js'), 'useTodos').doc).toBe('Re-renders the caller whenever the store changes.');
    expect(definitionOf(recordOf(records, 'src/TodoList.jsx'), 'TodoList').doc).toBe('');
  });

  test('imports: ESM sources, require() and import() specifiers, unquoted, in file order', () => {
    expect(recordOf(records, 'lib/store.cjs').imports.modules).toEqual(['node:events', './priority.cjs']);
    expect(recordOf(records, 'src/TodoList.jsx').imports.modules).toEqual(['react', './useTodos.js', './Layout.jsx', '../lib/priority.cjs', './Editor.jsx']);
    expect(recordOf(records, 'lib/priority.cjs').imports.modules).toEqual([]);
    expect(recordOf(records, 'lib/store.cjs').imports.lines).toEqual([1, 2]);
    expect(recordOf(records, 'src/TodoList.jsx').imports.lines).toEqual([1, 2, 3, 5, 42]);
  });

  test('imports: the names taken from each module (by their name there), `*` for `export *`', () => {
    const text = [
      "import fallback, { a, b as c } from './m';",
      "import * as ns from './n';",
      "export { x, y as z } from './o';",
      "export * from './p';",
      "export * as q from './q';",
      "import { d } from './m';",
      "const r = require('./r');",
      '',
    ].join('\n');
    const record = textRecord('src/i.js', 'javascript', text);
    // A default or namespace import, `export * as`, and require() take the module itself.
    expect(record.imports).toEqual({
      modules: ['./m', './n', './o', './p', './q', './r'],
      names: [['a', 'b', 'd'], [], ['x', 'y'], ['*'], [], []],
      lines: [1, 2, 3, 4, 5, 7],
    });
  });

  test('a file with definitions but no references falls back to its identifiers, at line -1', () => {
    const { lines, kinds } = recordOf(records, 'lib/priority.cjs').references;
    expect(lines.length).toBeGreaterThan(0);
    expect(new Set(lines)).toEqual(new Set([-1]));
    expect(new Set(kinds)).toEqual(new Set(['identifier']));
  });
});
