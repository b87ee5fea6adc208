import type Parser from 'tree-sitter';

/**
 * A tree cursor's node type, namedness and field, by the ids the cursor gives as numbers: a name
 * crosses from native code as a new string on every read, so each id's is read once per file.
 */
export class CursorNames {
  private readonly types: string[] = [];
  /** Namedness follows from the node's (aliased) symbol, as its type does. */
  private readonly named: boolean[] = [];
  private readonly fields: string[] = [];

  /** The id of the cursor's node's type, whose name and namedness are known from then on. */
  typeIdOf(cursor: Parser.TreeCursor): number {
    const type = cursor.nodeTypeId;
    if (this.types[type] === undefined) {
      this.types[type] = cursor.nodeType;
      this.named[type] = cursor.nodeIsNamed;
    }
    return type;
  }

  typeName(type: number): string {
    return this.types[type]!;
  }

  isNamed(type: number): boolean {
    return this.named[type]!;
  }

  /** The field the cursor's node fills in its parent, or null. */
  fieldOf(cursor: Parser.TreeCursor): string | null {
    const field = cursor.currentFieldId;
    if (!field) return null;
    if (this.fields[field] === undefined) this.fields[field] = cursor.currentFieldName;
    return this.fields[field];
  }
}
