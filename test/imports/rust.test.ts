import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { resolveFixture } from '../support/importTargets.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/imports/rust', import.meta.url));
const CORE = 'crates/shop-core/src/';
const CLI = 'crates/shop-cli/';
const HUBS = fileURLToPath(new URL('../../fixtures/imports/rust-hubs', import.meta.url));

describe('Rust import resolution', () => {
  test('use paths and mod items name the file of their longest module prefix, across the workspace', async () => {
    const { targets, resolved } = await resolveFixture(FIXTURE);
    expect(targets).toEqual({
      // A `[[bin]] path` root and the build script own their folders.
      [`${CLI}admin/run.rs`]: { 'self::tools': [`${CLI}admin/tools.rs`] },
      [`${CLI}admin/tools.rs`]: { 'crate::main': [`${CLI}admin/run.rs`] },
      [`${CLI}src/main.rs`]: {
        shop_core: [`${CORE}lib.rs`],
        'self::args': [`${CLI}src/args.rs`],
        // The package's own library, by its `[lib] name`, at its `[lib] path`.
        'shop_front::render::render': [`${CLI}src/render.rs`],
        'shop_core::cart::line::Line': [`${CORE}cart/line.rs`],
        'shop_core::cart::Cart': [`${CORE}cart.rs`],
        'std::env': [],
      },
      [`${CLI}src/render.rs`]: {
        // lib.rs only re-exports Cart.
        '::shop_core::Cart': [`${CORE}cart.rs`],
        'shop_core::pricing::discount': [`${CORE}pricing/discount.rs`],
        'shop_core::pricing::discount::Rule': [`${CORE}pricing/discount.rs`],
      },
      [`${CLI}src/shop.rs`]: { 'self::render': [`${CLI}src/render.rs`] },
      [`${CLI}tests/smoke.rs`]: {
        'self::common': [`${CLI}tests/common/mod.rs`],
        'shop_front::render': [`${CLI}src/render.rs`],
      },
      'crates/shop-core/build.rs': { 'self::codegen': ['crates/shop-core/codegen.rs'] },
      [`${CORE}cart.rs`]: {
        'self::line': [`${CORE}cart/line.rs`],
        'self::line::Line': [`${CORE}cart/line.rs`],
        // util is an inline module of lib.rs.
        'super::util::round': [`${CORE}lib.rs`],
        'crate::pricing::discount::Rule': [`${CORE}pricing/discount.rs`],
        'crate::pricing::Price': [`${CORE}pricing/mod.rs`],
        // Written inside `mod checkout { … }` as `mod receipt;` and `super::super::Shop`.
        'self::checkout::receipt': [`${CORE}cart/checkout/receipt.rs`],
        'super::Shop': [`${CORE}lib.rs`],
      },
      [`${CORE}cart/line.rs`]: {
        'super::super::pricing::Price': [`${CORE}pricing/mod.rs`],
        'crate::Shop': [`${CORE}lib.rs`],
        'crate::*': [`${CORE}lib.rs`],
      },
      [`${CORE}lib.rs`]: {
        'self::cart': [`${CORE}cart.rs`],
        'self::pricing': [`${CORE}pricing/mod.rs`],
        'cart::Cart': [`${CORE}cart.rs`],
        'std::fmt': [],
      },
      [`${CORE}pricing/discount.rs`]: {
        // A 2015-edition path, relative to the crate root.
        'cart::Cart': [`${CORE}cart.rs`],
        'super::Price': [`${CORE}pricing/mod.rs`],
      },
      [`${CORE}pricing/mod.rs`]: {
        'self::discount': [`${CORE}pricing/discount.rs`],
        'serde::Serialize': [],
        // Written inside `mod tests { … }` as `super::discount::Rule` and `super::*`.
        'self::discount::Rule': [`${CORE}pricing/discount.rs`],
        'self::*': [`${CORE}pricing/mod.rs`],
      },
    });
    expect(resolved.counts.rust).toEqual({ entries: 35, resolved: 32 });
  });

  test('an item a module file only re-exports names the file that defines it', async () => {
    const { targets } = await resolveFixture(HUBS);
    expect(targets).toEqual({
      'src/bin/app.rs': {
        // Defined by the crate root itself.
        'shop::connect': ['src/lib.rs'],
        // A module itself, or all of it.
        'shop::model': ['src/model/mod.rs'],
        'shop::model::*': ['src/model/mod.rs'],
        // Through `pub use self::line::*;`.
        'shop::model::Line': ['src/model/line.rs'],
        // Defined nowhere: stays on the module.
        'shop::model::Missing': ['src/model/mod.rs'],
        // ring::a and ring::b re-export Ping from each other.
        'shop::ring::Ping': ['src/ring/mod.rs'],
        // lib.rs → model/mod.rs → model/cart.rs.
        'shop::Cart': ['src/model/cart.rs'],
      },
      'src/lib.rs': { 'self::model': ['src/model/mod.rs'], 'self::ring': ['src/ring/mod.rs'], 'model::Cart': ['src/model/cart.rs'] },
      'src/model/mod.rs': {
        'self::cart': ['src/model/cart.rs'],
        'self::line': ['src/model/line.rs'],
        'self::cart::Cart': ['src/model/cart.rs'],
        'self::line::*': ['src/model/line.rs'],
      },
      'src/ring/a.rs': { 'super::b::Ping': ['src/ring/b.rs'] },
      'src/ring/b.rs': { 'super::a::Ping': ['src/ring/a.rs'] },
      'src/ring/mod.rs': { 'self::a': ['src/ring/a.rs'], 'self::b': ['src/ring/b.rs'], 'self::a::Ping': ['src/ring/a.rs'] },
    });
  });
});
