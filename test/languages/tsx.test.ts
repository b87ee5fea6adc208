import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { definitionOf, extractFixture, fixtureTags, recordOf } from '../support/fixtureTags.js';

const fixture = fileURLToPath(new URL('../../fixtures/languages/tsx', import.meta.url));

describe('TSX tags (.tsx)', () => {
  test('the fixture yields exactly these tags', () => {
    // Hand-checked against the sources. Of note: capitalised JSX tags are `component`
    // references (`<CartContext.Provider>` names Provider; `<List<Product>` also references
    // the type argument), closing tags and HTML tags are not; `export const CartContext =
    // createContext(…)` is an exported constant; Icons.tsx uses only HTML tags, so it falls back
    // to its identifiers at line −1.
    expect(fixtureTags(fixture)).toEqual([
      'src/App.tsx:8 def function App',
      'src/App.tsx:6 ref call lazy',
      'src/App.tsx:8 ref type Product',
      'src/App.tsx:10 ref component ErrorBoundary',
      'src/App.tsx:11 ref component CartProvider',
      'src/App.tsx:12 ref component ProductList',
      'src/App.tsx:13 ref component Suspense',
      'src/App.tsx:13 ref component Spinner',
      'src/App.tsx:14 ref component Checkout',
      'src/cart.tsx:3 def interface CartLine',
      'src/cart.tsx:10 def type CartAction',
      'src/cart.tsx:12 def interface CartState',
      'src/cart.tsx:15 def method dispatch',
      'src/cart.tsx:18 def constant CartContext',
      'src/cart.tsx:20 def function reducer',
      'src/cart.tsx:29 def function CartProvider',
      'src/cart.tsx:36 def function useCart',
      'src/cart.tsx:10 ref type CartLine',
      'src/cart.tsx:13 ref type CartLine',
      'src/cart.tsx:15 ref type CartAction',
      'src/cart.tsx:18 ref call createContext',
      'src/cart.tsx:18 ref type CartState',
      'src/cart.tsx:20 ref type CartLine',
      'src/cart.tsx:20 ref type CartAction',
      'src/cart.tsx:20 ref type CartLine',
      'src/cart.tsx:25 ref call filter',
      'src/cart.tsx:29 ref type PropsWithChildren',
      'src/cart.tsx:30 ref call useReducer',
      'src/cart.tsx:31 ref call useMemo',
      'src/cart.tsx:31 ref call reduce',
      'src/cart.tsx:32 ref component Provider',
      'src/cart.tsx:36 ref type CartState',
      'src/cart.tsx:37 ref call useContext',
      'src/cart.tsx:38 ref new Error',
      'src/components/Icons.tsx:1 def function CartIcon',
      'src/components/Icons.tsx:7 def function Spinner',
      'src/components/Icons.tsx:-1 ref identifier CartIcon',
      'src/components/Icons.tsx:-1 ref identifier size',
      'src/components/Icons.tsx:-1 ref identifier label',
      'src/components/Icons.tsx:-1 ref identifier size',
      'src/components/Icons.tsx:-1 ref identifier label',
      'src/components/Icons.tsx:-1 ref identifier svg',
      'src/components/Icons.tsx:-1 ref identifier width',
      'src/components/Icons.tsx:-1 ref identifier size',
      'src/components/Icons.tsx:-1 ref identifier height',
      'src/components/Icons.tsx:-1 ref identifier size',
      'src/components/Icons.tsx:-1 ref identifier viewBox',
      'src/components/Icons.tsx:-1 ref identifier role',
      'src/components/Icons.tsx:-1 ref identifier aria-label',
      'src/components/Icons.tsx:-1 ref identifier label',
      'src/components/Icons.tsx:-1 ref identifier path',
      'src/components/Icons.tsx:-1 ref identifier d',
      'src/components/Icons.tsx:-1 ref identifier svg',
      'src/components/Icons.tsx:-1 ref identifier Spinner',
      'src/components/Icons.tsx:-1 ref identifier span',
      'src/components/Icons.tsx:-1 ref identifier className',
      'src/components/Icons.tsx:-1 ref identifier aria-busy',
      'src/components/ProductList.tsx:5 def interface Product',
      'src/components/ProductList.tsx:11 def interface ListProps',
      'src/components/ProductList.tsx:13 def method renderItem',
      'src/components/ProductList.tsx:16 def function List',
      'src/components/ProductList.tsx:20 def function ProductList',
      'src/components/ProductList.tsx:22 def function addToCart',
      'src/components/ProductList.tsx:38 def class ErrorBoundary',
      'src/components/ProductList.tsx:41 def method getDerivedStateFromError',
      'src/components/ProductList.tsx:45 def method componentDidCatch',
      'src/components/ProductList.tsx:49 def method render',
      'src/components/ProductList.tsx:12 ref type T',
      'src/components/ProductList.tsx:13 ref type T',
      'src/components/ProductList.tsx:13 ref type ReactNode',
      'src/components/ProductList.tsx:16 ref type ListProps',
      'src/components/ProductList.tsx:16 ref type T',
      'src/components/ProductList.tsx:17 ref call map',
      'src/components/ProductList.tsx:17 ref call renderItem',
      'src/components/ProductList.tsx:20 ref type Product',
      'src/components/ProductList.tsx:21 ref call useCart',
      'src/components/ProductList.tsx:22 ref type Product',
      'src/components/ProductList.tsx:23 ref type CartLine',
      'src/components/ProductList.tsx:24 ref call dispatch',
      'src/components/ProductList.tsx:27 ref component List',
      'src/components/ProductList.tsx:27 ref type Product',
      'src/components/ProductList.tsx:30 ref call addToCart',
      'src/components/ProductList.tsx:31 ref component CartIcon',
      'src/components/ProductList.tsx:38 ref implementation Component',
      'src/components/ProductList.tsx:38 ref type ReactNode',
      'src/components/ProductList.tsx:38 ref type Error',
      'src/components/ProductList.tsx:39 ref type Error',
      'src/components/ProductList.tsx:41 ref type Error',
      'src/components/ProductList.tsx:45 ref type Error',
      'src/components/ProductList.tsx:45 ref type ErrorInfo',
      'src/components/ProductList.tsx:46 ref call error',
    ]);
  });

  const records = extractFixture(fixture);

  test('a hook keeps its extent, its head as signature and its JSDoc summary', () => {
    expect(definitionOf(recordOf(records, 'src/cart.tsx'), 'useCart')).toMatchObject({
      kind: 'function',
      line: 36,
      endLine: 40,
      signature: 'function useCart(): CartState',
      doc: 'The cart of the nearest CartProvider.',
    });
  });

  test('a class component and its render method', () => {
    const list = recordOf(records, 'src/components/ProductList.tsx');
    expect(definitionOf(list, 'ErrorBoundary')).toMatchObject({
      kind: 'class',
      line: 38,
      endLine: 52,
      signature: 'class ErrorBoundary extends Component<{ children: ReactNode }, { error?: Error }>',
    });
    const render = definitionOf(list, 'render');
    expect(render).toMatchObject({ kind: 'method', line: 49, endLine: 51, signature: 'render()' });
    // The class header is cut at ten lines (38–47); the method's own header is lines 49–50.
    expect(render.scopeLines).toEqual([38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 49, 50]);
  });

  test('an arrow-function component is a function whose definition spans the whole declaration', () => {
    expect(definitionOf(recordOf(records, 'src/components/ProductList.tsx'), 'ProductList')).toMatchObject({
      kind: 'function',
      line: 20,
      endLine: 36,
      signature: 'const ProductList = ({ products }: { products: Product[] }) =>',
    });
  });

  test('imports: ESM sources and a lazy import(), unquoted, in file order', () => {
    expect(recordOf(records, 'src/App.tsx').imports.modules).toEqual(['react', './cart', './components/ProductList', './components/Icons', './Checkout']);
    // The lazy import() is written on line 6.
    expect(recordOf(records, 'src/App.tsx').imports.lines).toEqual([1, 2, 3, 4, 6]);
  });

  test('a file with definitions but no references falls back to its identifiers, at line -1', () => {
    const { names, lines } = recordOf(records, 'src/components/Icons.tsx').references;
    expect(names).toContain('CartIcon');
    expect(new Set(lines)).toEqual(new Set([-1]));
  });
});
