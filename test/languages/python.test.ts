import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { compareWithAider } from '../support/aiderReference.js';
import { definitionOf, extractFixture, fixtureTags, recordOf, textRecord } from '../support/fixtureTags.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/languages/python', import.meta.url));

describe('python tags', () => {
  test('fixture yields exactly the expected tags', () => {
    // Every line checked by hand against the sources: any change in the query shows up here.
    // catalog.py:12 `type BookIndex = ...` also yields a type reference to BookIndex: the
    // alias name sits in a `type` node like every annotation, and the extractor keeps a name
    // captured as both a definition and a reference.
    expect(fixtureTags(FIXTURE)).toEqual([
      'bookshelf/__init__.py:5 def constant __all__',
      'bookshelf/__init__.py:2 ref import Catalog',
      'bookshelf/__init__.py:3 ref import LendingDesk',

      'bookshelf/catalog.py:8 def constant log',
      'bookshelf/catalog.py:10 def constant T',
      'bookshelf/catalog.py:12 def type BookIndex',
      'bookshelf/catalog.py:15 def function logged',
      'bookshelf/catalog.py:18 def function wrapper',
      'bookshelf/catalog.py:25 def class Repository',
      'bookshelf/catalog.py:28 def method __init__',
      'bookshelf/catalog.py:31 def method add',
      'bookshelf/catalog.py:34 def method get',
      'bookshelf/catalog.py:37 def method __iter__',
      'bookshelf/catalog.py:41 def class Catalog',
      'bookshelf/catalog.py:43 def method search',
      'bookshelf/catalog.py:48 def method by_genre',
      'bookshelf/catalog.py:52 def method sort_key',
      'bookshelf/catalog.py:55 def method refresh',
      'bookshelf/catalog.py:1 ref import logging',
      'bookshelf/catalog.py:2 ref import collections.abc',
      'bookshelf/catalog.py:2 ref import AsyncIterator',
      'bookshelf/catalog.py:2 ref import Iterator',
      'bookshelf/catalog.py:3 ref import typing',
      'bookshelf/catalog.py:3 ref import Generic',
      'bookshelf/catalog.py:3 ref import TypeVar',
      'bookshelf/catalog.py:5 ref import Book',
      'bookshelf/catalog.py:5 ref import Genre',
      'bookshelf/catalog.py:6 ref import DEFAULT_PAGE_SIZE',
      'bookshelf/catalog.py:6 ref import clamp_page_size',
      'bookshelf/catalog.py:8 ref call getLogger',
      'bookshelf/catalog.py:10 ref call TypeVar',
      'bookshelf/catalog.py:12 ref type BookIndex',
      'bookshelf/catalog.py:12 ref type dict',
      'bookshelf/catalog.py:12 ref type str',
      'bookshelf/catalog.py:12 ref type Book',
      'bookshelf/catalog.py:19 ref call debug',
      'bookshelf/catalog.py:20 ref call func',
      'bookshelf/catalog.py:25 ref implementation Generic',
      'bookshelf/catalog.py:29 ref type dict',
      'bookshelf/catalog.py:29 ref type str',
      'bookshelf/catalog.py:29 ref type T',
      'bookshelf/catalog.py:31 ref type str',
      'bookshelf/catalog.py:31 ref type T',
      'bookshelf/catalog.py:34 ref type str',
      'bookshelf/catalog.py:34 ref type T',
      'bookshelf/catalog.py:35 ref call get',
      'bookshelf/catalog.py:37 ref type Iterator',
      'bookshelf/catalog.py:37 ref type T',
      'bookshelf/catalog.py:38 ref call iter',
      'bookshelf/catalog.py:38 ref call values',
      'bookshelf/catalog.py:41 ref implementation Repository',
      'bookshelf/catalog.py:42 ref decorator logged',
      'bookshelf/catalog.py:43 ref type str',
      'bookshelf/catalog.py:43 ref type int',
      'bookshelf/catalog.py:43 ref type list',
      'bookshelf/catalog.py:43 ref type Book',
      'bookshelf/catalog.py:44 ref call clamp_page_size',
      'bookshelf/catalog.py:45 ref call lower',
      'bookshelf/catalog.py:46 ref call lower',
      'bookshelf/catalog.py:48 ref type Genre',
      'bookshelf/catalog.py:48 ref type list',
      'bookshelf/catalog.py:48 ref type Book',
      'bookshelf/catalog.py:51 ref decorator staticmethod',
      'bookshelf/catalog.py:52 ref type Book',
      'bookshelf/catalog.py:52 ref type str',
      'bookshelf/catalog.py:53 ref call casefold',
      'bookshelf/catalog.py:55 ref type AsyncIterator',
      'bookshelf/catalog.py:55 ref type dict',
      'bookshelf/catalog.py:55 ref type int',
      'bookshelf/catalog.py:58 ref call add',
      'bookshelf/catalog.py:58 ref call Book',

      'bookshelf/lending.py:7 def class LendingError',
      'bookshelf/lending.py:11 def class LendingDesk',
      'bookshelf/lending.py:12 def method __init__',
      'bookshelf/lending.py:16 def method lend',
      'bookshelf/lending.py:26 def method give_back',
      'bookshelf/lending.py:1 ref import datetime',
      'bookshelf/lending.py:1 ref import date',
      'bookshelf/lending.py:3 ref import catalog',
      'bookshelf/lending.py:4 ref import Book',
      'bookshelf/lending.py:4 ref import Loan',
      'bookshelf/lending.py:4 ref import Member',
      'bookshelf/lending.py:7 ref implementation Exception',
      'bookshelf/lending.py:12 ref type Catalog',
      'bookshelf/lending.py:15 ref decorator logged',
      'bookshelf/lending.py:16 ref type Member',
      'bookshelf/lending.py:16 ref type str',
      'bookshelf/lending.py:16 ref type date',
      'bookshelf/lending.py:16 ref type Loan',
      'bookshelf/lending.py:17 ref call get',
      'bookshelf/lending.py:19 ref call LendingError',
      'bookshelf/lending.py:20 ref call can_borrow',
      'bookshelf/lending.py:21 ref call LendingError',
      'bookshelf/lending.py:22 ref call Loan',
      'bookshelf/lending.py:23 ref call append',
      'bookshelf/lending.py:26 ref type Member',
      'bookshelf/lending.py:26 ref type Book',
      'bookshelf/lending.py:26 ref type date',
      'bookshelf/lending.py:26 ref type int',
      'bookshelf/lending.py:29 ref call remove',
      'bookshelf/lending.py:30 ref call late_fee',
      'bookshelf/lending.py:31 ref call LendingError',

      'bookshelf/models.py:11 def class Genre',
      'bookshelf/models.py:12 def constant FICTION',
      'bookshelf/models.py:13 def constant HISTORY',
      'bookshelf/models.py:14 def constant SCIENCE',
      'bookshelf/models.py:18 def class Book',
      'bookshelf/models.py:26 def method short_title',
      'bookshelf/models.py:31 def class Member',
      'bookshelf/models.py:36 def class Tier',
      'bookshelf/models.py:37 def constant BASIC',
      'bookshelf/models.py:38 def constant PREMIUM',
      'bookshelf/models.py:40 def method can_borrow',
      'bookshelf/models.py:45 def class Loan',
      'bookshelf/models.py:50 def method due_on',
      'bookshelf/models.py:53 def method late_fee',
      'bookshelf/models.py:4 ref import dataclasses',
      'bookshelf/models.py:4 ref import dataclass',
      'bookshelf/models.py:4 ref import field',
      'bookshelf/models.py:5 ref import datetime',
      'bookshelf/models.py:5 ref import date',
      'bookshelf/models.py:5 ref import timedelta',
      'bookshelf/models.py:6 ref import enum',
      'bookshelf/models.py:6 ref import Enum',
      'bookshelf/models.py:8 ref import LATE_FEE_CENTS',
      'bookshelf/models.py:8 ref import LOAN_PERIOD_DAYS',
      'bookshelf/models.py:11 ref implementation Enum',
      'bookshelf/models.py:17 ref call dataclass',
      'bookshelf/models.py:21 ref type str',
      'bookshelf/models.py:22 ref type str',
      'bookshelf/models.py:23 ref type Genre',
      'bookshelf/models.py:25 ref decorator property',
      'bookshelf/models.py:26 ref type str',
      'bookshelf/models.py:27 ref call len',
      'bookshelf/models.py:30 ref decorator dataclass',
      'bookshelf/models.py:32 ref type int',
      'bookshelf/models.py:33 ref type str',
      'bookshelf/models.py:34 ref type list',
      'bookshelf/models.py:34 ref type Loan',
      'bookshelf/models.py:34 ref call field',
      'bookshelf/models.py:36 ref implementation Enum',
      'bookshelf/models.py:40 ref type int',
      'bookshelf/models.py:40 ref type bool',
      'bookshelf/models.py:41 ref call len',
      'bookshelf/models.py:44 ref decorator dataclass',
      'bookshelf/models.py:46 ref type Book',
      'bookshelf/models.py:47 ref type date',
      'bookshelf/models.py:49 ref decorator property',
      'bookshelf/models.py:50 ref type date',
      'bookshelf/models.py:51 ref call timedelta',
      'bookshelf/models.py:53 ref type date',
      'bookshelf/models.py:53 ref type int',
      'bookshelf/models.py:59 ref call max',

      'bookshelf/settings.py:3 def constant DEFAULT_PAGE_SIZE',
      'bookshelf/settings.py:4 def constant MAX_PAGE_SIZE',
      'bookshelf/settings.py:5 def constant LOAN_PERIOD_DAYS',
      'bookshelf/settings.py:6 def constant LATE_FEE_CENTS',
      'bookshelf/settings.py:9 def function clamp_page_size',
      'bookshelf/settings.py:-1 ref identifier DEFAULT_PAGE_SIZE',
      'bookshelf/settings.py:-1 ref identifier MAX_PAGE_SIZE',
      'bookshelf/settings.py:-1 ref identifier LOAN_PERIOD_DAYS',
      'bookshelf/settings.py:-1 ref identifier LATE_FEE_CENTS',
      'bookshelf/settings.py:-1 ref identifier clamp_page_size',
      'bookshelf/settings.py:-1 ref identifier requested',
      'bookshelf/settings.py:-1 ref identifier requested',
      'bookshelf/settings.py:-1 ref identifier DEFAULT_PAGE_SIZE',
      'bookshelf/settings.py:-1 ref identifier requested',
      'bookshelf/settings.py:-1 ref identifier requested',
      'bookshelf/settings.py:-1 ref identifier MAX_PAGE_SIZE',
      'bookshelf/settings.py:-1 ref identifier MAX_PAGE_SIZE',
    ]);
  });

  test('definitions carry end line, signature, docstring and scope lines', () => {
    const records = extractFixture(FIXTURE);
    const models = recordOf(records, 'bookshelf/models.py');

    const lateFee = definitionOf(models, 'late_fee');
    expect(lateFee).toMatchObject({
      kind: 'method',
      line: 53,
      endLine: 59,
      signature: 'def late_fee(self, today: date) -> int',
      doc: 'Fee in cents for a loan returned on `today`.',
    });
    // The enclosing class header must be shown with a method.
    expect(lateFee.scopeLines).toContain(45);

    // A decorated class starts at its decorator, but the tag and signature belong to `class`.
    expect(definitionOf(models, 'Book')).toMatchObject({
      line: 18,
      endLine: 27,
      signature: 'class Book',
      doc: 'A title on the shelf.',
    });

    const catalog = recordOf(records, 'bookshelf/catalog.py');
    expect(definitionOf(catalog, 'refresh').signature).toBe('async def refresh(self, records: AsyncIterator[dict]) -> int');
    expect(definitionOf(catalog, 'sort_key').signature).toBe('def sort_key(book: Book) -> str');
    expect(catalog.imports).toEqual({
      modules: ['logging', 'collections.abc', 'typing', '.models', '.settings'],
      names: [[], ['AsyncIterator', 'Iterator'], ['Generic', 'TypeVar'], ['Book', 'Genre'], ['DEFAULT_PAGE_SIZE', 'clamp_page_size']],
      lines: [1, 2, 3, 5, 6],
    });
    expect(recordOf(records, 'bookshelf/lending.py').imports).toEqual({
      modules: ['datetime', '.', '.models'],
      names: [['date'], ['catalog'], ['Book', 'Loan', 'Member']],
      lines: [1, 3, 4],
    });
  });

  test('imports: one entry per module, with the names taken from it (aliases by their original name)', () => {
    const text = [
      'import os, a.b.c as abc',
      'from a.b import c, d as e',
      'from ..x import y',
      'from . import z',
      'from .m import *',
      'from a.b import (f,',
      '    g)',
      'from __future__ import annotations',
      '',
    ].join('\n');
    const record = textRecord('p/q.py', 'python', text);
    expect(record.imports).toEqual({
      modules: ['os', 'a.b.c', 'a.b', '..x', '.', '.m'],
      // `import *` takes every name.
      names: [[], [], ['c', 'd', 'f', 'g'], ['y'], ['z'], ['*']],
      // A module imported again keeps the line where it is first written.
      lines: [1, 1, 2, 3, 4, 5],
    });
    expect(record.references.names).toEqual(['os', 'a.b.c', 'a.b', 'c', 'd', 'y', 'z', 'a.b', 'f', 'g']);
  });

  test('a comment after the colon stays out of the signature; multi-line parameters read as one line', () => {
    const text = 'class Ledger:  # the books\n    def post(\n        self,\n        amount: int,\n    ) -> None:\n        pass\n';
    const record = textRecord('ledger.py', 'python', text);
    expect(record.definitions.map((d) => d.signature)).toEqual(['class Ledger', 'def post(self, amount: int) -> None']);
  });

  test('a file that defines but references nothing falls back to its identifiers', () => {
    const settings = recordOf(extractFixture(FIXTURE), 'bookshelf/settings.py');
    expect(settings.imports.modules).toEqual([]);
    expect(new Set(settings.references.lines)).toEqual(new Set([-1]));
    expect(new Set(settings.references.kinds)).toEqual(new Set(['identifier']));
  });
});

describe('python tags against aider', () => {
  test('every tag aider finds in the shop repo is one of ours', () => {
    // aider's fallback references (line -1), left out of `expected`, come from a lexer, used where
    // its query found no reference; ours finds real ones (imports) in those files, so they have
    // no counterpart.
    const { expected, missing } = compareWithAider(['.py']);
    expect(expected.length).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });
});
