/**
 * File names as the file system gives them, bytes: a name that is not UTF-8 cannot be a
 * JavaScript string that opens the same file again, so it is shown, never used.
 */

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The name as text, or null when its bytes are not UTF-8. */
export function decodeName(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/** The name with each byte that is no part of a valid UTF-8 sequence written `\xNN`. */
export function showName(bytes: Uint8Array): string {
  let shown = '';
  let validFrom = 0;
  let at = 0;
  while (at < bytes.length) {
    const length = sequenceLength(bytes, at);
    if (length > 0) {
      at += length;
      continue;
    }
    shown += `${strictUtf8.decode(bytes.subarray(validFrom, at))}\\x${bytes[at]!.toString(16).padStart(2, '0')}`;
    validFrom = ++at;
  }
  return shown + strictUtf8.decode(bytes.subarray(validFrom));
}

/** The length of the valid UTF-8 sequence starting at `at`, 0 when none does (no prefix of a sequence is valid alone). */
function sequenceLength(bytes: Uint8Array, at: number): number {
  for (let length = 1; length <= 4 && at + length <= bytes.length; length++) {
    if (decodeName(bytes.subarray(at, at + length)) !== null) return length;
  }
  return 0;
}
