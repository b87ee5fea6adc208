import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * LMDB maps its file and trusts every byte of it: a page number past the end of a truncated file
 * ends the process with SIGBUS, a damaged node offset with SIGSEGV. So before lmdb-js opens a
 * store, this walks what LMDB will read — both meta pages, then every page of every tree (the
 * free list, the main tree and the named databases in it), each node's bounds, each overflow run
 * — and names the first thing out of place. The layout is lmdb-js's LMDB (its mdb.c): a 24-byte
 * page header (page number, txnid, pad, flags, lower, upper or the overflow page count).
 */
const PAGE_HEADER = 24;
const NODE_HEADER = 8;
const DB_RECORD = 48;
const P_BRANCH = 0x01;
const P_LEAF = 0x02;
const P_OVERFLOW = 0x04;
const P_META = 0x08;
const PAGE_KINDS = 0x7f;
const F_BIGDATA = 0x01;
const F_SUBDATA = 0x02;
const MAGIC = 0xbeefc0de;
const DATA_VERSION = 2;
const META_TXNID = PAGE_HEADER + 128;
/** The page header and the meta: magic, version, address, map size, two database records, last page, txnid, boot id. */
const META_BYTES = PAGE_HEADER + 144;
/** P_INVALID, an empty tree's root: all 64 bits set, as u64() reads it. */
const NO_PAGE = 0xffff_ffff * 2 ** 32 + 0xffff_ffff;
/** LMDB's cursors hold at most 32 pages of a path. */
const MAX_DEPTH = 32;
/** Attempts at a walk no writer overtook (LMDB reuses a snapshot's pages two commits later). */
const WALKS = 3;

class LmdbFileDamage extends Error {}

interface Meta {
  pageSize: number;
  lastPage: number;
  txnid: number;
  freeTree: Tree;
  mainTree: Tree;
}

interface Tree {
  root: number;
  depth: number;
}

/** Why the LMDB file at `path` is unsafe to map, or null when LMDB may open it (also when there is no file yet, or an empty one it initializes). */
export function lmdbFileDamage(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    for (let walk = 1; ; walk++) {
      const file = new PageFile(fd);
      if (file.size === 0) return null;
      try {
        const newest = file.newestMeta();
        file.walkTree(newest.freeTree, 'free');
        file.walkTree(newest.mainTree, 'main');
        return null;
      } catch (error) {
        if (!(error instanceof LmdbFileDamage)) throw error;
        // A writer that committed twice meanwhile may have reused pages this walk read, and one that
        // grew the file since it was measured wrote a meta counting pages past that size: walk again.
        if (walk < WALKS && (file.overtaken() || file.grown())) continue;
        return error.message;
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** An unsigned 64-bit field as a number: exact below 2^53, and past any page count above. */
function u64(bytes: Buffer, at: number): number {
  return bytes.readUInt32LE(at) + bytes.readUInt32LE(at + 4) * 2 ** 32;
}

class PageFile {
  readonly size: number;
  private pageSize = 0;
  private pages = 0;
  private lastPage = 0;
  private txnid = 0;
  private readonly seen = new Set<number>();
  /** A buffer per page being walked: a walk reads a child before it is done with its parent. */
  private readonly walking: Buffer[] = [];
  private nested = 0;
  /** For the meta pages, overflow heads and free lists. */
  private scratch = Buffer.alloc(4096);

  constructor(private readonly fd: number) {
    this.size = fstatSync(fd).size;
  }

  newestMeta(): Meta {
    const first = this.meta(0, 'meta page 0');
    this.pageSize = first.pageSize;
    this.pages = Math.floor(this.size / this.pageSize);
    const second = this.meta(this.pageSize, 'meta page 1');
    const newest = first.txnid >= second.txnid ? first : second;
    // lmdb-js keeps a flushed copy in page 0's second half: LMDB takes its page size when it is newer.
    if (this.txnidAt(this.pageSize / 2) > newest.txnid) this.meta(this.pageSize / 2, 'the flushed meta', false);
    this.lastPage = newest.lastPage;
    this.txnid = newest.txnid;
    return newest;
  }

  /** Whether a writer committed at least twice since newestMeta(): the pages this walk read may have been reused. */
  overtaken(): boolean {
    return this.lastPage > 0 && (this.txnidAt(0) > this.txnid + 1 || this.txnidAt(this.pageSize) > this.txnid + 1);
  }

  /** Whether the file is longer now than when this walk measured it. */
  grown(): boolean {
    return fstatSync(this.fd).size > this.size;
  }

  private txnidAt(at: number): number {
    return u64(this.read(at, META_TXNID + 8), META_TXNID);
  }

  private meta(at: number, what: string, flagged = true): Meta {
    if (this.size < at + META_BYTES) throw new LmdbFileDamage(`the file ends before ${what}`);
    const page = this.read(at, META_BYTES);
    if (flagged && (page.readUInt16LE(18) & P_META) === 0) throw new LmdbFileDamage(`${what} is not a meta page`);
    if (page.readUInt32LE(PAGE_HEADER) !== MAGIC) throw new LmdbFileDamage(`${what} is not LMDB's`);
    if ((page.readUInt32LE(PAGE_HEADER + 4) & 0xffff) !== DATA_VERSION) throw new LmdbFileDamage(`${what} has another LMDB version`);
    const pageSize = page.readUInt32LE(PAGE_HEADER + 24);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0 || (this.pageSize && pageSize !== this.pageSize)) {
      throw new LmdbFileDamage(`${what} has page size ${pageSize}`);
    }
    const lastPage = u64(page, PAGE_HEADER + 120);
    if (lastPage < 1 || (lastPage + 1) * pageSize > this.size) {
      throw new LmdbFileDamage(`${what} counts ${lastPage + 1} pages of ${pageSize} bytes, the file holds ${this.size} bytes`);
    }
    const tree = (at: number): Tree => ({ root: u64(page, at + 40), depth: page.readUInt16LE(at + 6) });
    return { pageSize, lastPage, txnid: u64(page, META_TXNID), freeTree: tree(PAGE_HEADER + 24), mainTree: tree(PAGE_HEADER + 24 + DB_RECORD) };
  }

  walkTree(tree: Tree, name: string): void {
    if (tree.root === NO_PAGE) {
      if (tree.depth !== 0) throw new LmdbFileDamage(`the ${name} tree has depth ${tree.depth} and no root`);
      return;
    }
    if (tree.depth < 1 || tree.depth > MAX_DEPTH) throw new LmdbFileDamage(`the ${name} tree has depth ${tree.depth}`);
    this.walkPage(this.pageNumber(tree.root, name), 1, tree.depth, name);
  }

  private walkPage(pageNumber: number, level: number, depth: number, name: string): void {
    const page = this.claimPage(pageNumber, name, this.walkingBuffer());
    this.nested++;
    try {
      this.walkNodes(page, pageNumber, level, depth, name);
    } finally {
      this.nested--;
    }
  }

  private walkNodes(page: Buffer, pageNumber: number, level: number, depth: number, name: string): void {
    const where = `page ${pageNumber} of the ${name} tree`;
    const isLeaf = level === depth;
    const flags = page.readUInt16LE(18) & PAGE_KINDS;
    if (flags !== (isLeaf ? P_LEAF : P_BRANCH)) throw new LmdbFileDamage(`${where} has flags ${flags}`);
    const lower = page.readUInt16LE(20);
    const upper = page.readUInt16LE(22);
    if (lower % 2 !== 0 || lower === 0 || lower > upper || upper > this.pageSize - PAGE_HEADER)
      throw new LmdbFileDamage(`${where} has bounds ${lower}-${upper}`);
    for (let index = 0; index < lower / 2; index++) {
      const at = PAGE_HEADER + page.readUInt16LE(PAGE_HEADER + index * 2);
      if (at < PAGE_HEADER + upper || at + NODE_HEADER > this.pageSize) throw new LmdbFileDamage(`node ${index} of ${where} lies outside it`);
      const keyEnd = at + NODE_HEADER + page.readUInt16LE(at + 6);
      const lowHigh = page.readUInt32LE(at);
      const nodeFlags = page.readUInt16LE(at + 4);
      if (keyEnd > this.pageSize) throw new LmdbFileDamage(`node ${index} of ${where} has a key past the page`);
      if (!isLeaf) {
        // A branch node's child page number: its size fields, then its flags as the top 16 bits.
        this.walkPage(this.pageNumber(lowHigh + nodeFlags * 2 ** 32, name), level + 1, depth, name);
        continue;
      }
      if ((nodeFlags & ~(F_BIGDATA | F_SUBDATA)) !== 0 || (nodeFlags & F_SUBDATA && name !== 'main')) {
        throw new LmdbFileDamage(`node ${index} of ${where} has flags ${nodeFlags}`);
      }
      const dataEnd = keyEnd + (nodeFlags & F_BIGDATA ? 8 : lowHigh);
      if (dataEnd > this.pageSize) throw new LmdbFileDamage(`node ${index} of ${where} has data past the page`);
      if (nodeFlags & F_SUBDATA) {
        if (lowHigh !== DB_RECORD) throw new LmdbFileDamage(`node ${index} of ${where} is no database record`);
        this.walkTree({ root: u64(page, keyEnd + 40), depth: page.readUInt16LE(keyEnd + 6) }, `'${page.toString('latin1', at + NODE_HEADER, keyEnd)}'`);
      } else if (nodeFlags & F_BIGDATA) {
        const first = this.overflowRun(u64(page, keyEnd), lowHigh, name);
        if (name === 'free') this.checkFreeList(this.read(first * this.pageSize + PAGE_HEADER, lowHigh), where);
      } else if (name === 'free') {
        this.checkFreeList(page.subarray(keyEnd, dataEnd), where);
      }
    }
  }

  private walkingBuffer(): Buffer {
    const buffer = this.walking[this.nested] ?? Buffer.alloc(this.pageSize);
    this.walking[this.nested] = buffer;
    return buffer;
  }

  /** Checks the overflow run a big value starts at; returns its first page. */
  private overflowRun(first: number, size: number, name: string): number {
    const pageNumber = this.pageNumber(first, name);
    const page = this.claimPage(pageNumber, name, this.scratchOf(this.pageSize));
    const count = page.readUInt32LE(20);
    if ((page.readUInt16LE(18) & PAGE_KINDS) !== P_OVERFLOW || count < 1 || pageNumber + count > this.pages || size > count * this.pageSize - PAGE_HEADER) {
      throw new LmdbFileDamage(`overflow page ${pageNumber} of the ${name} tree is damaged`);
    }
    return pageNumber;
  }

  /** A free-list value, whose page numbers LMDB writes to: a count, then page numbers, a negated run length before a run's page. */
  private checkFreeList(ids: Buffer, where: string): void {
    const damaged = () => new LmdbFileDamage(`the free list on ${where} is damaged`);
    if (ids.length < 8 || ids.length % 8 !== 0) throw damaged();
    const count = u64(ids, 0);
    if (count > ids.length / 8 - 1) throw damaged();
    for (let i = 1; i <= count; i++) {
      // Signed: a run length is stored negated.
      let id = Number(ids.readBigInt64LE(i * 8));
      if (id === 0) continue;
      if (id < 0) {
        if (-id > this.lastPage || ++i > count) throw damaged();
        id = u64(ids, i * 8);
      }
      if (id < 2 || id > this.lastPage) throw damaged();
    }
  }

  private pageNumber(value: number, name: string): number {
    if (value < 2 || value > this.lastPage || value >= this.pages) throw new LmdbFileDamage(`the ${name} tree points at page ${value}, past the file`);
    return value;
  }

  /** A page no other path reached (a tree is no graph), read into `page`. */
  private claimPage(pageNumber: number, name: string, page: Buffer): Buffer {
    if (this.seen.has(pageNumber)) throw new LmdbFileDamage(`page ${pageNumber} of the ${name} tree is reached twice`);
    this.seen.add(pageNumber);
    const got = readSync(this.fd, page, 0, this.pageSize, pageNumber * this.pageSize);
    if (got !== this.pageSize) throw new LmdbFileDamage(`the file ends inside page ${pageNumber}`);
    if (u64(page, 0) !== pageNumber) throw new LmdbFileDamage(`page ${pageNumber} says it is page ${u64(page, 0)}`);
    // A page from a later transaction than the file's newest would pass for one LMDB may write in place.
    if (u64(page, 8) > this.txnid) throw new LmdbFileDamage(`page ${pageNumber} is from transaction ${u64(page, 8)}, after the last`);
    return page;
  }

  /** `length` bytes at `at`, valid until the next read. */
  private read(at: number, length: number): Buffer {
    const bytes = this.scratchOf(length);
    const got = readSync(this.fd, bytes, 0, length, at);
    if (got !== length) throw new LmdbFileDamage(`the file ends at ${at + got} bytes`);
    return bytes;
  }

  private scratchOf(length: number): Buffer {
    if (this.scratch.length < length) this.scratch = Buffer.alloc(length);
    return this.scratch.subarray(0, length);
  }
}
