import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { compareWithAider } from '../support/aiderReference.js';
import { definitionOf, extractFixture, fixtureTags, recordOf, textRecord } from '../support/fixtureTags.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/languages/java', import.meta.url));
const PACKAGE_DIR = 'src/main/java/org/acme/tasks/';

describe('java tags', () => {
  test('fixture yields exactly the expected tags', () => {
    const tags = fixtureTags(FIXTURE);
    // Every source sits in one package folder; dropping it keeps the list below readable.
    expect(tags.every((tag) => tag.startsWith(PACKAGE_DIR))).toBe(true);
    // Every line checked by hand against the sources: any change in the query shows up here.
    // Type parameters (`T`, `ID`) come out as type references: tree-sitter-java names them
    // type_identifier like any other type.
    expect(tags.map((tag) => tag.slice(PACKAGE_DIR.length))).toEqual([
      'Audited.java:11 def interface Audited',
      'Audited.java:12 def method action',
      'Audited.java:3 ref import ElementType',
      'Audited.java:4 ref import Retention',
      'Audited.java:5 ref import RetentionPolicy',
      'Audited.java:6 ref import Target',
      'Audited.java:9 ref annotation Retention',
      'Audited.java:10 ref annotation Target',
      'Audited.java:12 ref type String',

      'InMemoryTaskRepository.java:9 def class InMemoryTaskRepository',
      'InMemoryTaskRepository.java:10 def constant FIRST_ID',
      'InMemoryTaskRepository.java:16 def constructor InMemoryTaskRepository',
      'InMemoryTaskRepository.java:21 def method findById',
      'InMemoryTaskRepository.java:26 def method findAll',
      'InMemoryTaskRepository.java:32 def method save',
      'InMemoryTaskRepository.java:40 def method overdue',
      'InMemoryTaskRepository.java:49 def interface Clock',
      'InMemoryTaskRepository.java:50 def method today',
      'InMemoryTaskRepository.java:52 def method system',
      'InMemoryTaskRepository.java:3 ref import LocalDate',
      'InMemoryTaskRepository.java:5 ref import AtomicLong',
      'InMemoryTaskRepository.java:6 ref import Collectors',
      'InMemoryTaskRepository.java:9 ref implementation Repository',
      'InMemoryTaskRepository.java:9 ref type Task',
      'InMemoryTaskRepository.java:9 ref type Long',
      'InMemoryTaskRepository.java:12 ref type Map',
      'InMemoryTaskRepository.java:12 ref type Long',
      'InMemoryTaskRepository.java:12 ref type Task',
      'InMemoryTaskRepository.java:12 ref new LinkedHashMap',
      'InMemoryTaskRepository.java:13 ref type AtomicLong',
      'InMemoryTaskRepository.java:13 ref new AtomicLong',
      'InMemoryTaskRepository.java:14 ref type Clock',
      'InMemoryTaskRepository.java:16 ref type Clock',
      'InMemoryTaskRepository.java:20 ref annotation Override',
      'InMemoryTaskRepository.java:21 ref type Optional',
      'InMemoryTaskRepository.java:21 ref type Task',
      'InMemoryTaskRepository.java:21 ref type Long',
      'InMemoryTaskRepository.java:22 ref call ofNullable',
      'InMemoryTaskRepository.java:22 ref call get',
      'InMemoryTaskRepository.java:25 ref annotation Override',
      'InMemoryTaskRepository.java:26 ref type List',
      'InMemoryTaskRepository.java:26 ref type Task',
      'InMemoryTaskRepository.java:27 ref call values',
      'InMemoryTaskRepository.java:27 ref call stream',
      'InMemoryTaskRepository.java:27 ref call limit',
      'InMemoryTaskRepository.java:27 ref call collect',
      'InMemoryTaskRepository.java:27 ref call toList',
      'InMemoryTaskRepository.java:30 ref annotation Override',
      'InMemoryTaskRepository.java:31 ref annotation Audited',
      'InMemoryTaskRepository.java:32 ref type Task',
      'InMemoryTaskRepository.java:32 ref type Task',
      'InMemoryTaskRepository.java:33 ref type Task',
      'InMemoryTaskRepository.java:33 ref call id',
      'InMemoryTaskRepository.java:34 ref new Task',
      'InMemoryTaskRepository.java:34 ref call incrementAndGet',
      'InMemoryTaskRepository.java:34 ref call title',
      'InMemoryTaskRepository.java:34 ref call status',
      'InMemoryTaskRepository.java:34 ref call due',
      'InMemoryTaskRepository.java:36 ref call put',
      'InMemoryTaskRepository.java:36 ref call id',
      'InMemoryTaskRepository.java:40 ref type List',
      'InMemoryTaskRepository.java:40 ref type Task',
      'InMemoryTaskRepository.java:41 ref type LocalDate',
      'InMemoryTaskRepository.java:41 ref call today',
      'InMemoryTaskRepository.java:42 ref call values',
      'InMemoryTaskRepository.java:42 ref call stream',
      'InMemoryTaskRepository.java:43 ref call filter',
      'InMemoryTaskRepository.java:43 ref call isOverdue',
      'InMemoryTaskRepository.java:44 ref call sorted',
      'InMemoryTaskRepository.java:44 ref type Task',
      'InMemoryTaskRepository.java:44 ref new ByDueDate',
      'InMemoryTaskRepository.java:45 ref call collect',
      'InMemoryTaskRepository.java:45 ref call toList',
      'InMemoryTaskRepository.java:50 ref type LocalDate',
      'InMemoryTaskRepository.java:52 ref type Clock',
      'InMemoryTaskRepository.java:53 ref call now',

      'Repository.java:11 def interface Repository',
      'Repository.java:12 def constant DEFAULT_LIMIT',
      'Repository.java:14 def method findById',
      'Repository.java:16 def method findAll',
      'Repository.java:18 def method save',
      'Repository.java:20 def method findAll',
      'Repository.java:3 ref import List',
      'Repository.java:4 ref import Optional',
      'Repository.java:11 ref type T',
      'Repository.java:11 ref type ID',
      'Repository.java:14 ref type Optional',
      'Repository.java:14 ref type T',
      'Repository.java:14 ref type ID',
      'Repository.java:16 ref type List',
      'Repository.java:16 ref type T',
      'Repository.java:18 ref type T',
      'Repository.java:18 ref type T',
      'Repository.java:20 ref type List',
      'Repository.java:20 ref type T',
      'Repository.java:21 ref call findAll',

      'Status.java:4 def enum Status',
      'Status.java:5 def constant OPEN',
      'Status.java:6 def constant IN_PROGRESS',
      'Status.java:7 def constant DONE',
      'Status.java:11 def constructor Status',
      'Status.java:15 def method rank',
      'Status.java:19 def method isFinished',
      'Status.java:-1 ref identifier org',
      'Status.java:-1 ref identifier acme',
      'Status.java:-1 ref identifier tasks',
      'Status.java:-1 ref identifier Status',
      'Status.java:-1 ref identifier OPEN',
      'Status.java:-1 ref identifier IN_PROGRESS',
      'Status.java:-1 ref identifier DONE',
      'Status.java:-1 ref identifier rank',
      'Status.java:-1 ref identifier Status',
      'Status.java:-1 ref identifier rank',
      'Status.java:-1 ref identifier rank',
      'Status.java:-1 ref identifier rank',
      'Status.java:-1 ref identifier rank',
      'Status.java:-1 ref identifier rank',
      'Status.java:-1 ref identifier isFinished',
      'Status.java:-1 ref identifier DONE',

      'Task.java:11 def class Task',
      'Task.java:13 def constant MAX_TITLE_LENGTH',
      'Task.java:15 def constructor Task',
      'Task.java:22 def method withStatus',
      'Task.java:26 def method isOverdue',
      'Task.java:31 def class ByDueDate',
      'Task.java:33 def method compare',
      'Task.java:3 ref import requireNonNull',
      'Task.java:5 ref import LocalDate',
      'Task.java:6 ref import Comparator',
      'Task.java:11 ref type String',
      'Task.java:11 ref type Status',
      'Task.java:11 ref type LocalDate',
      'Task.java:16 ref call requireNonNull',
      'Task.java:17 ref call length',
      'Task.java:18 ref new IllegalArgumentException',
      'Task.java:22 ref type Task',
      'Task.java:22 ref type Status',
      'Task.java:23 ref new Task',
      'Task.java:26 ref type LocalDate',
      'Task.java:27 ref call isFinished',
      'Task.java:27 ref call isBefore',
      'Task.java:31 ref implementation Comparator',
      'Task.java:31 ref type Task',
      'Task.java:32 ref annotation Override',
      'Task.java:33 ref type Task',
      'Task.java:33 ref type Task',
      'Task.java:34 ref call due',
      'Task.java:34 ref call compareTo',
      'Task.java:34 ref call due',
      'Task.java:35 ref call title',
      'Task.java:35 ref call compareTo',
      'Task.java:35 ref call title',
    ]);
  });

  test('definitions carry end line, signature, doc comment and scope lines', () => {
    const records = extractFixture(FIXTURE);
    const task = recordOf(records, `${PACKAGE_DIR}Task.java`);

    expect(definitionOf(task, 'Task', { kind: 'class' })).toMatchObject({
      line: 11,
      endLine: 38,
      signature: 'public record Task(long id, String title, Status status, LocalDate due)',
      doc: 'One unit of work with a due date.',
    });
    const withStatus = definitionOf(task, 'withStatus', { kind: 'method' });
    expect(withStatus).toMatchObject({ line: 22, endLine: 24, signature: 'public Task withStatus(Status next)' });
    // The enclosing record header must be shown with a method.
    expect(withStatus.scopeLines).toContain(11);
    expect(definitionOf(task, 'ByDueDate', { kind: 'class' })).toMatchObject({
      line: 31,
      endLine: 37,
      signature: 'public static final class ByDueDate implements Comparator<Task>',
      doc: 'Orders tasks by due date, then title.',
    });
    expect(definitionOf(recordOf(records, `${PACKAGE_DIR}Repository.java`), 'DEFAULT_LIMIT', { kind: 'constant' }).signature).toBe('int DEFAULT_LIMIT = 50');

    // A static import names a member; a wildcard import its package, taking the name `*`.
    expect(task.imports).toEqual({
      modules: ['java.util.Objects.requireNonNull', 'java.time.LocalDate', 'java.util.Comparator'],
      names: [[], [], []],
      lines: [3, 5, 6],
    });
    expect(task.packageName).toBe('org.acme.tasks');
    expect(recordOf(records, `${PACKAGE_DIR}InMemoryTaskRepository.java`).imports).toEqual({
      modules: ['java.time.LocalDate', 'java.util', 'java.util.concurrent.atomic.AtomicLong', 'java.util.stream.Collectors'],
      names: [[], ['*'], [], []],
      lines: [3, 4, 5, 6],
    });
  });

  test('a trailing comment of the previous line is no doc comment; annotations stay out of signatures', () => {
    const text = 'class Counter {\n    int x = 1; // counter\n    @Override\n    public String toString() { return "" + x; }\n}\n';
    const record = textRecord('Counter.java', 'java', text);
    expect(record.definitions.find((d) => d.name === 'toString')).toMatchObject({ doc: '', signature: 'public String toString()' });
  });

  test('a file that defines but references nothing falls back to its identifiers', () => {
    const status = recordOf(extractFixture(FIXTURE), `${PACKAGE_DIR}Status.java`);
    expect(status.definitions.map((definition) => definition.name)).toContain('DONE');
    expect(new Set(status.references.lines)).toEqual(new Set([-1]));
    expect(new Set(status.references.kinds)).toEqual(new Set(['identifier']));
  });
});

describe('java tags against aider', () => {
  test('every tag aider finds in the shop repo is one of ours', () => {
    const { expected, missing } = compareWithAider(['.java']);
    expect(expected.length).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });
});
