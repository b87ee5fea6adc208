import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, test } from 'vitest';
import { AIDER_STYLE, copyFixture, filePaths, lines, mapWithin, rankingOf, scoreOf, topDefinitions } from '../support/mapFixture.js';

/**
 * A plain Python repo (a lending library: models, catalog, loans, an entry point), no options:
 * its ranking worked out by hand from aider's weights, and its map at two budgets.
 *
 * The graph, referencer → definer, weight = multipliers × √(reference count):
 *   app.py → catalog.py  Catalog √2 (import + call), add 1, find_by_isbn 10 (long snake_case)
 *   app.py → loans.py    checkout √2 (8 letters, but neither snake nor camel case: no ×10)
 *   app.py → models.py   Book √2, Member √2
 *   app.py → app.py      main 1 (the `__main__` call)
 *   catalog.py → models.py  Book √4 (import + three annotations)
 *   catalog.py → itself     __init__ 0.1 (defined, referenced nowhere)
 *   loans.py → models.py    Book √3, Member √3
 *   loans.py → itself       Loan √3; LOAN_DAYS 0.1 and is_overdue 0.1 (LOAN_DAYS is only passed
 *                           as an argument, which Python's tags do not count as a reference)
 *   models.py references nothing of the repo: a dangling node, its rank spread evenly.
 * Out-weights: app 4√2 + 12 ≈ 17.66, catalog 2.1, loans 3√3 + 0.2 ≈ 5.40.
 */
const root = copyFixture('plain');
const encoding = get_encoding('cl100k_base');
afterAll(() => encoding.free());

const APP_OUT = 4 * Math.SQRT2 + 12;
const LOANS_OUT = 3 * Math.sqrt(3) + 0.2;

describe('a plain repo', () => {
  test('files and definitions rank as the weights say', async () => {
    const ranked = await rankingOf(root);
    // models.py takes 2/2.1 of catalog's rank, 2√3/5.40 of loans' and 2√2/17.66 of app's;
    // catalog.py takes 12.4/17.66 = 70% of app's; loans.py only 8% of app's, but keeps 36% of its
    // own (Loan's √3 and two 0.1 self-edges); app.py keeps 1/17.66 of its own, and the teleport
    // and models.py's dangling share come to every file alike.
    expect(filePaths(ranked)).toEqual(['library/models.py', 'library/catalog.py', 'library/loans.py', 'library/app.py']);
    const [models, catalog, loans, app] = ranked.files.map((file) => file.rank) as [number, number, number, number];
    expect(models).toBeCloseTo(0.4391, 4);
    expect(catalog).toBeCloseTo(0.2219, 4);
    expect(loans).toBeCloseTo(0.2015, 4);
    expect(app).toBeCloseTo(0.1374, 4);

    // A score is Σ rank(referencer) × weight / out-weight(referencer):
    // Book      0.2219·2/2.1 + 0.2015·√3/5.40 + 0.1374·√2/17.66 = 0.211 + 0.065 + 0.011
    // find_by_isbn 0.1374·10/17.66 = 0.078 (the ×10 lifts it over Member)
    // Member    0.2015·√3/5.40 + 0.1374·√2/17.66 = 0.065 + 0.011
    // Loan      0.2015·√3/5.40 = 0.065
    // checkout = Catalog = 0.1374·√2/17.66 = 0.011; a tie falls back to path, descending
    // __init__  0.2219·0.1/2.1 = 0.0106
    // add = main = 0.1374/17.66 = 0.0078 (catalog.py before app.py)
    // is_overdue = LOAN_DAYS = 0.2015·0.1/5.40 = 0.0037; same file, so name descending
    expect(topDefinitions(ranked)).toEqual([
      'library/models.py Book',
      'library/catalog.py find_by_isbn',
      'library/models.py Member',
      'library/loans.py Loan',
      'library/loans.py checkout',
      'library/catalog.py Catalog',
      'library/catalog.py __init__',
      'library/catalog.py add',
      'library/app.py main',
      'library/loans.py is_overdue',
      'library/loans.py LOAN_DAYS',
    ]);
    expect(scoreOf(ranked, 'library/models.py', 'Book')).toBeCloseTo(
      catalog * (2 / 2.1) + loans * (Math.sqrt(3) / LOANS_OUT) + app * (Math.SQRT2 / APP_OUT),
      10,
    );
    expect(scoreOf(ranked, 'library/catalog.py', 'find_by_isbn')).toBeCloseTo((app * 10) / APP_OUT, 10);
    expect(scoreOf(ranked, 'library/loans.py', 'checkout')).toBe(scoreOf(ranked, 'library/catalog.py', 'Catalog'));
    expect(scoreOf(ranked, 'library/loans.py', 'LOAN_DAYS')).toBeCloseTo((loans * 0.1) / LOANS_OUT, 10);
  });

  test('at 128 tokens: the first four ranked definitions', async () => {
    const { text, stderr } = await mapWithin(encoding, root, 128, AIDER_STYLE);
    // Book, find_by_isbn, Member, Loan; checkout would take it to 138 tokens. The class body's
    // first line (`def __init__`) is shown as the scope header of find_by_isbn's block, as
    // grep-ast does; the decorators are the headers of the decorated classes.
    expect(stderr).toContain('map of 4 entries, 116 tokens (budget 128)');
    expect(text).toBe(
      lines(
        '',
        'library/catalog.py:',
        '⋮',
        '│class Catalog:',
        '│    def __init__(self) -> None:',
        '⋮',
        '│    def find_by_isbn(self, isbn: str) -> Book | None:',
        '⋮',
        '',
        'library/loans.py:',
        '⋮',
        '│@dataclass(frozen=True)',
        '│class Loan:',
        '⋮',
        '',
        'library/models.py:',
        '⋮',
        '│@dataclass(frozen=True)',
        '│class Book:',
        '⋮',
        '│@dataclass(frozen=True)',
        '│class Member:',
        '⋮',
      ),
    );
  });

  test('at 512 tokens: every definition, files in path order', async () => {
    const { text, stderr } = await mapWithin(encoding, root, 512, AIDER_STYLE);
    // All 11 definitions take 213 tokens. The blank line after LOAN_DAYS is shown because it
    // follows a shown line (grep-ast closes such gaps).
    expect(stderr).toContain('map of 11 entries, 213 tokens (budget 512)');
    expect(text).toBe(
      lines(
        '',
        'library/app.py:',
        '⋮',
        '│def main(argv: list[str]) -> int:',
        '⋮',
        '',
        'library/catalog.py:',
        '⋮',
        '│class Catalog:',
        '│    def __init__(self) -> None:',
        '⋮',
        '│    def add(self, book: Book) -> None:',
        '⋮',
        '│    def find_by_isbn(self, isbn: str) -> Book | None:',
        '⋮',
        '',
        'library/loans.py:',
        '⋮',
        '│LOAN_DAYS = 14',
        '│',
        '⋮',
        '│@dataclass(frozen=True)',
        '│class Loan:',
        '⋮',
        '│def checkout(book: Book, member: Member, today: date) -> Loan:',
        '⋮',
        '│def is_overdue(loan: Loan, today: date) -> bool:',
        '⋮',
        '',
        'library/models.py:',
        '⋮',
        '│@dataclass(frozen=True)',
        '│class Book:',
        '⋮',
        '│@dataclass(frozen=True)',
        '│class Member:',
        '⋮',
      ),
    );
  });

  test('in the default signatures style: every definition in 211 tokens, no blank line closing a gap', async () => {
    const { text, stderr } = await mapWithin(encoding, root, 512);
    // aider's 213 less the blank line after LOAN_DAYS; the first line of Catalog's body is shown
    // as a definition (__init__), not as a header.
    expect(stderr).toContain('map of 11 entries, 211 tokens (budget 512)');
    expect(text).toBe(
      lines(
        '',
        'library/app.py:',
        '⋮',
        '│def main(argv: list[str]) -> int:',
        '⋮',
        '',
        'library/catalog.py:',
        '⋮',
        '│class Catalog:',
        '│    def __init__(self) -> None:',
        '⋮',
        '│    def add(self, book: Book) -> None:',
        '⋮',
        '│    def find_by_isbn(self, isbn: str) -> Book | None:',
        '⋮',
        '',
        'library/loans.py:',
        '⋮',
        '│LOAN_DAYS = 14',
        '⋮',
        '│@dataclass(frozen=True)',
        '│class Loan:',
        '⋮',
        '│def checkout(book: Book, member: Member, today: date) -> Loan:',
        '⋮',
        '│def is_overdue(loan: Loan, today: date) -> bool:',
        '⋮',
        '',
        'library/models.py:',
        '⋮',
        '│@dataclass(frozen=True)',
        '│class Book:',
        '⋮',
        '│@dataclass(frozen=True)',
        '│class Member:',
        '⋮',
      ),
    );
  });
});
