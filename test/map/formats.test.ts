import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../support/cli.js';
import { copyFixture, lines } from '../support/mapFixture.js';

/**
 * The formats on a small shop (models, pricing, a receipt, an entry point, a test, a README),
 * everything shown: the same entries in each. compact: the legend names the kinds it uses and
 * aliases `shop/core/` (its ten uses save more than its entry costs); models.py is imported by
 * four files; methods sit under their class, `self` dropped; the test file is counted, not
 * listed. xml: rank is the file's place in the ranking (the README first, as an important file);
 * `<`, `&` and `]]>` of models.py's lines escaped. markdown: the FENCE line's backticks stay
 * inside the fenced block, as every shown line starts with `│` or `⋮`.
 */
const root = copyFixture('formats');

async function mapAs(format: string): Promise<string> {
  const result = await runCli(['map', root, '-t', '4096', '--format', format]);
  expect(result.code).toBe(0);
  return result.stdout;
}

describe('the formats on one fixture', () => {
  test('compact', async () => {
    expect(await mapAs('compact')).toBe(
      lines(
        '# compact map: path ←N (N files import it) → its imports in this map +M others; symbols: kind name(params)->return :line, members indented',
        '# kinds: c=class f=function m=method k=constant',
        '# $1=shop/core/',
        'README.md ←0',
        'shop/__init__.py ←0',
        'shop/app.py ←0 → $1models.py, $1pricing.py, $1receipt.py',
        ' f main()->None :6',
        '$1__init__.py ←0',
        '$1models.py ←4',
        ' k FENCE :3',
        ' k JOIN :4',
        ' c Item :8',
        '  m label(open_tag: str = "<b>", close_tag: str = "]]>")->str :12',
        '  m cheaper(other: "Item")->bool :15',
        ' c Basket :19',
        '  m __init__()->None :20',
        '  m add(item: Item)->None :23',
        '  m flags(mask: int)->int :26',
        '$1pricing.py ←3 → $1models.py',
        ' k VAT_PERCENT :3',
        ' f total(basket: Basket)->int :6',
        ' f with_vat(cents: int, percent: int = VAT_PERCENT)->int :10',
        ' f cheapest(items: list[Item])->Item | None :17',
        '$1receipt.py ←1 → $1models.py, $1pricing.py',
        ' f receipt_lines(basket: Basket)->list[str] :5',
        ' f fence(item: Item)->str :11',
        '# 1 test file not listed',
      ),
    );
  });

  test('compact, models.py a chat file: the imports the map leaves out are counted', async () => {
    const result = await runCli(['map', root, '-t', '4096', '--format', 'compact', '-c', join(root, 'shop/core/models.py')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      lines(
        '# compact map: path ←N (N files import it) → its imports in this map +M others; symbols: kind name(params)->return :line, members indented',
        '# kinds: f=function k=constant',
        '# $1=shop/core/',
        'README.md ←0',
        'shop/__init__.py ←0',
        'shop/app.py ←0 → $1pricing.py, $1receipt.py +1',
        ' f main()->None :6',
        '$1__init__.py ←0',
        '$1pricing.py ←3 → +1',
        ' k VAT_PERCENT :3',
        ' f total(basket: Basket)->int :6',
        ' f with_vat(cents: int, percent: int = VAT_PERCENT)->int :10',
        ' f cheapest(items: list[Item])->Item | None :17',
        '$1receipt.py ←1 → $1pricing.py +1',
        ' f receipt_lines(basket: Basket)->list[str] :5',
        ' f fence(item: Item)->str :11',
        '# 1 test file not listed',
      ),
    );
  });

  test('xml', async () => {
    expect(await mapAs('xml')).toBe(
      lines(
        '<map>',
        '<file path="README.md" rank="1"/>',
        '<file path="shop/__init__.py" rank="7"/>',
        '<file path="shop/app.py" rank="5">',
        '⋮',
        '│def main() -&gt; None:',
        '⋮',
        '</file>',
        '<file path="shop/core/__init__.py" rank="8"/>',
        '<file path="shop/core/models.py" rank="2">',
        '⋮',
        '│FENCE = "```"',
        '│JOIN = " &amp; "',
        '⋮',
        '│@dataclass',
        '│class Item:',
        '⋮',
        '│    def label(self, open_tag: str = "&lt;b&gt;", close_tag: str = "]]&gt;") -&gt; str:',
        '⋮',
        '│    def cheaper(self, other: "Item") -&gt; bool:',
        '⋮',
        '│class Basket:',
        '│    def __init__(self) -&gt; None:',
        '⋮',
        '│    def add(self, item: Item) -&gt; None:',
        '⋮',
        '│    def flags(self, mask: int) -&gt; int:',
        '⋮',
        '</file>',
        '<file path="shop/core/pricing.py" rank="3">',
        '⋮',
        '│VAT_PERCENT = 20',
        '⋮',
        '│def total(basket: Basket) -&gt; int:',
        '⋮',
        '│def with_vat(',
        '│    cents: int,',
        '│    percent: int = VAT_PERCENT,',
        '│) -&gt; int:',
        '⋮',
        '│def cheapest(items: list[Item]) -&gt; Item | None:',
        '⋮',
        '</file>',
        '<file path="shop/core/receipt.py" rank="4">',
        '⋮',
        '│def receipt_lines(basket: Basket) -&gt; list[str]:',
        '⋮',
        '│def fence(item: Item) -&gt; str:',
        '⋮',
        '</file>',
        '<file path="tests/test_pricing.py" rank="6">',
        '⋮',
        '│def test_total() -&gt; None:',
        '⋮',
        '│def test_with_vat() -&gt; None:',
        '⋮',
        '</file>',
        '</map>',
      ),
    );
  });

  test('markdown', async () => {
    expect(await mapAs('markdown')).toBe(
      lines(
        '- `README.md`',
        '- `shop/__init__.py`',
        '## `shop/app.py`',
        '```',
        '⋮',
        '│def main() -> None:',
        '⋮',
        '```',
        '- `shop/core/__init__.py`',
        '## `shop/core/models.py`',
        '```',
        '⋮',
        '│FENCE = "```"',
        '│JOIN = " & "',
        '⋮',
        '│@dataclass',
        '│class Item:',
        '⋮',
        '│    def label(self, open_tag: str = "<b>", close_tag: str = "]]>") -> str:',
        '⋮',
        '│    def cheaper(self, other: "Item") -> bool:',
        '⋮',
        '│class Basket:',
        '│    def __init__(self) -> None:',
        '⋮',
        '│    def add(self, item: Item) -> None:',
        '⋮',
        '│    def flags(self, mask: int) -> int:',
        '⋮',
        '```',
        '## `shop/core/pricing.py`',
        '```',
        '⋮',
        '│VAT_PERCENT = 20',
        '⋮',
        '│def total(basket: Basket) -> int:',
        '⋮',
        '│def with_vat(',
        '│    cents: int,',
        '│    percent: int = VAT_PERCENT,',
        '│) -> int:',
        '⋮',
        '│def cheapest(items: list[Item]) -> Item | None:',
        '⋮',
        '```',
        '## `shop/core/receipt.py`',
        '```',
        '⋮',
        '│def receipt_lines(basket: Basket) -> list[str]:',
        '⋮',
        '│def fence(item: Item) -> str:',
        '⋮',
        '```',
        '## `tests/test_pricing.py`',
        '```',
        '⋮',
        '│def test_total() -> None:',
        '⋮',
        '│def test_with_vat() -> None:',
        '⋮',
        '```',
      ),
    );
  });
});
