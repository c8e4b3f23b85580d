/**
 * Where a secret is in a text, in every form it can take there: a secret leaves this machine
 * in a header, a URL or a JSON body, and comes back echoed by whatever answered (a
 * redirect's `Location`, an error page that quotes the request, a gateway's log line), in
 * the encoding of where it was put. {@link secretSpans} finds the secret written raw, or
 * with any of its characters (some, all, in any mix) written
 * - percent-encoded (`%40`, `%4a` or `%4A`, as `encodeURIComponent`, a form or a strict
 *   encoder writes it), twice percent-encoded (`%2540`), a space as a form's `+`;
 * - JSON-escaped (`\"`, `\\`, `\/`, `\n`, `\u00e9`, surrogate pairs), and escaped again
 *   (a JSON body quoted inside a JSON string: `\\\"`);
 * - as an HTML character reference (`&quot;`, `&#34;`, `&#x22;`);
 * - in two of these, one inside the other (a percent-encoded URL in a JSON string);
 * and the secret base64-encoded (standard and URL-safe alphabets, at each of the three
 * alignments it can take inside a longer base64 text, as in `Basic <user:password>`), for a
 * secret of {@link MIN_BASE64_LENGTH} characters or more.
 *
 * No regular expression is built from a secret (one of a large OAuth token overflowed the
 * engine's stack). The text is decoded instead, once per encoding and per pair of
 * encodings, each decoded view keeping where each of its characters came from; each view is
 * searched for the secrets and their base64 forms in one pass ({@link SecretIndex}), and what
 * is found is mapped back to the text. Linear in the text's length for each view, whatever
 * the number of secrets: a scrub of a megabyte of text makes at most {@link MAX_VIEWS} views,
 * each one pass.
 */

/** Secrets shorter than this are not looked for in base64: their encoding is too short to tell from other text. */
export const MIN_BASE64_LENGTH = 8;

/** A part of a text, from `start` to `end` (exclusive), in UTF-16 code units. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** A decoded text, and for each of its code units the part of its source it was decoded from. */
interface View {
  readonly text: string;
  /** Where each code unit's source starts. */
  readonly from: Int32Array;
  /** Where each code unit's source ends (exclusive). */
  readonly to: Int32Array;
}

/** Decodes one encoding everywhere it is written in a text; undefined when there is nothing to decode. */
type Decoder = (text: string) => View | undefined;

/** Collects the code units of a view, with where each came from. */
class ViewBuilder {
  /** The code units, little-endian (UTF-16LE, which `toString` reads). */
  private readonly units: Buffer;
  private readonly from: Int32Array;
  private readonly to: Int32Array;
  private n = 0;
  /** True once anything was decoded (the view differs from its source). */
  private decoded = false;

  /** @param capacity the source's length: no decoding makes a text longer */
  constructor(capacity: number) {
    this.units = Buffer.allocUnsafe(2 * capacity);
    this.from = new Int32Array(capacity);
    this.to = new Int32Array(capacity);
  }

  /** Adds the code units of `codePoint`, decoded from the source's `start` to `end`. */
  point(codePoint: number, start: number, end: number): void {
    if (codePoint > 0xffff) {
      const c = codePoint - 0x10000;
      this.unit(0xd800 + (c >> 10), start, end);
      this.unit(0xdc00 + (c & 0x3ff), start, end);
    } else this.unit(codePoint, start, end);
  }

  /** Adds one code unit, decoded from the source's `start` to `end` (`decoded`: even from one unit, as a form's `+`). */
  unit(unit: number, start: number, end: number, decoded = end - start !== 1): void {
    this.units[2 * this.n] = unit & 0xff;
    this.units[2 * this.n + 1] = unit >> 8;
    this.from[this.n] = start;
    this.to[this.n] = end;
    this.n += 1;
    if (decoded) this.decoded = true;
  }

  /** The view, or undefined when nothing was decoded. */
  view(): View | undefined {
    if (!this.decoded) return undefined;
    const text = this.units.toString("utf16le", 0, 2 * this.n);
    return { text, from: this.from.subarray(0, this.n), to: this.to.subarray(0, this.n) };
  }
}

/** The value of the hex digit `c` (a char code), or -1. */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The byte of `%XX` at `at` in `text`, or -1. */
function percentByte(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x25) return -1;
  const high = hexDigit(text.charCodeAt(at + 1));
  const low = hexDigit(text.charCodeAt(at + 2));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

/** How many bytes the UTF-8 sequence that starts with `lead` has, or 0 for no lead byte. */
function utf8Length(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/**
 * Percent-decoding (`%XX`, the bytes of a character's UTF-8 together); with `plus`, a `+` is
 * a space, as a form writes it. A `%` that begins no whole character stays as it is.
 */
function percentDecoder(plus: boolean): Decoder {
  return (text) => {
    if (!text.includes("%") && !(plus && text.includes("+"))) return undefined;
    const out = new ViewBuilder(text.length);
    for (let i = 0; i < text.length;) {
      const lead = percentByte(text, i);
      const length = lead < 0 ? 0 : utf8Length(lead);
      let codePoint = length === 1 ? lead : length === 0 ? -1 : lead & (0xff >> (length + 1));
      for (let k = 1; k < length && codePoint >= 0; k++) {
        const next = percentByte(text, i + 3 * k);
        codePoint = next >= 0x80 && next <= 0xbf ? (codePoint << 6) | (next & 0x3f) : -1;
      }
      if (codePoint >= 0 && codePoint <= 0x10ffff) {
        out.point(codePoint, i, i + 3 * length);
        i += 3 * length;
      } else if (plus && text.charCodeAt(i) === 0x2b) {
        out.unit(0x20, i, i + 1, true);
        i += 1;
      } else {
        out.unit(text.charCodeAt(i), i, i + 1);
        i += 1;
      }
    }
    return out.view();
  };
}

/** The characters JSON writes as `\` and a letter (and `\"`, `\\`, `\/`). */
const JSON_SHORT: Readonly<Record<string, number>> = { '"': 0x22, "\\": 0x5c, "/": 0x2f, b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 };

/** JSON string escapes: `\uXXXX` (each half of a surrogate pair as it is) and the short ones. */
const jsonDecoder: Decoder = (text) => {
  if (!text.includes("\\")) return undefined;
  const out = new ViewBuilder(text.length);
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === 0x5c && text[i + 1] === "u") {
      let unit = 0;
      for (let k = 2; k < 6 && unit >= 0; k++) {
        const d = hexDigit(text.charCodeAt(i + k));
        unit = d < 0 ? -1 : unit * 16 + d;
      }
      if (unit >= 0) {
        out.unit(unit, i, i + 6);
        i += 6;
        continue;
      }
    } else if (c === 0x5c && i + 1 < text.length && JSON_SHORT[text[i + 1]] !== undefined) {
      out.unit(JSON_SHORT[text[i + 1]], i, i + 2);
      i += 2;
      continue;
    }
    out.unit(c, i, i + 1);
    i += 1;
  }
  return out.view();
};

/** The named HTML references of the characters that have one in common use. */
const HTML_NAMED: ReadonlyArray<readonly [string, number]> = [
  ["&amp;", 0x26],
  ["&lt;", 0x3c],
  ["&gt;", 0x3e],
  ["&quot;", 0x22],
  ["&apos;", 0x27],
];

/** The numeric reference (`&#34;`, `&#x22;`, leading zeros allowed) at `at`: its code point and length, or undefined. */
function numericReference(text: string, at: number): { codePoint: number; length: number } | undefined {
  if (text.charCodeAt(at) !== 0x26 || text.charCodeAt(at + 1) !== 0x23) return undefined;
  const hex = (text.charCodeAt(at + 2) | 0x20) === 0x78;
  let i = at + (hex ? 3 : 2);
  let codePoint = 0;
  const first = i;
  for (; i < text.length; i++) {
    const d = hex ? hexDigit(text.charCodeAt(i)) : text.charCodeAt(i) - 0x30;
    if (d < 0 || d >= (hex ? 16 : 10)) break;
    codePoint = codePoint * (hex ? 16 : 10) + d;
    if (codePoint > 0x10ffff) return undefined;
  }
  if (i === first || text.charCodeAt(i) !== 0x3b || codePoint === 0) return undefined;
  return { codePoint, length: i + 1 - at };
}

/** HTML character references: numeric, and the named ones of {@link HTML_NAMED}. */
const htmlDecoder: Decoder = (text) => {
  if (!text.includes("&")) return undefined;
  const out = new ViewBuilder(text.length);
  for (let i = 0; i < text.length;) {
    if (text.charCodeAt(i) === 0x26) {
      const numeric = numericReference(text, i);
      const named = numeric === undefined ? HTML_NAMED.find(([name]) => text.startsWith(name, i)) : undefined;
      const found = numeric ?? (named === undefined ? undefined : { codePoint: named[1], length: named[0].length });
      if (found !== undefined) {
        out.point(found.codePoint, i, i + found.length);
        i += found.length;
        continue;
      }
    }
    out.unit(text.charCodeAt(i), i, i + 1);
    i += 1;
  }
  return out.view();
};

/** Every encoding a view undoes: each alone, and each pair (one inside the other). */
const DECODERS: readonly Decoder[] = [percentDecoder(false), percentDecoder(true), jsonDecoder, htmlDecoder];

/** The most views one text is searched in: itself, each encoding undone, each pair undone. */
export const MAX_VIEWS = 1 + DECODERS.length + DECODERS.length ** 2;

/** The parts of the base64 of `secret` that depend on it alone, at each alignment, in both alphabets. */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms = new Set<string>();
  for (let lead = 0; lead < 3; lead++) {
    const encoded = Buffer.concat([Buffer.alloc(lead), bytes]).toString("base64");
    // Characters whose 6 bits all come from the secret: from the first after the lead bytes to the last before the end.
    const core = encoded.slice(Math.ceil((8 * lead) / 6), Math.floor((8 * (lead + bytes.length)) / 6));
    forms.add(core);
    forms.add(core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...forms];
}

/** What to look for in each view: the secret as it is, and its base64 forms. */
function formsOf(secret: string): string[] {
  return [secret, ...(secret.length >= MIN_BASE64_LENGTH ? base64Forms(secret) : [])];
}

/** The key of the two code units of `text` at `at`, as {@link SecretIndex} files its forms. */
const pairAt = (text: string, at: number): number => (text.charCodeAt(at) << 16) | text.charCodeAt(at + 1);

/**
 * The forms of a set of secrets ({@link formsOf}), filed by their first two code units, so that
 * one pass over a text finds them all: a text is searched in time linear in its length and in
 * the places where a form's first two code units are, whatever the number of secrets (the
 * providers register every password the engine sends them: a destroy of N services scrubbed
 * each error once per secret before, N² in all). A secret added twice is filed once.
 */
export class SecretIndex {
  private readonly byPair = new Map<number, string[]>();
  /** Forms of one code unit: searched alone (no secret registered is that short, but any may be given). */
  private readonly single = new Set<string>();
  private readonly forms = new Set<string>();
  private readonly secrets = new Set<string>();

  /** An index of `secrets`. */
  static of(secrets: Iterable<string>): SecretIndex {
    const index = new SecretIndex();
    for (const s of secrets) index.add(s);
    return index;
  }

  /** How many secrets were added. */
  get size(): number {
    return this.secrets.size;
  }

  /** Files the forms of `secret`, once. */
  add(secret: string): void {
    if (this.secrets.has(secret)) return;
    this.secrets.add(secret);
    for (const form of formsOf(secret)) {
      if (form.length === 0 || this.forms.has(form)) continue;
      this.forms.add(form);
      if (form.length === 1) {
        this.single.add(form);
        continue;
      }
      const key = pairAt(form, 0);
      const filed = this.byPair.get(key);
      if (filed === undefined) this.byPair.set(key, [form]);
      else filed.push(form);
    }
  }

  /**
   * Calls `found` for each place in `text` where a form is: for each form, its
   * non-overlapping places left to right, as a search from the end of each place found
   * meets them (no whole form is left outside them: one that overlaps a place found is cut by it).
   */
  search(text: string, found: (start: number, end: number) => void): void {
    if (this.forms.size === 0) return;
    const freeFrom = new Map<string, number>();
    const take = (form: string, at: number): void => {
      if (at < (freeFrom.get(form) ?? 0) || !text.startsWith(form, at)) return;
      freeFrom.set(form, at + form.length);
      found(at, at + form.length);
    };
    for (let at = 0; at < text.length; at++) {
      const filed = at + 1 < text.length ? this.byPair.get(pairAt(text, at)) : undefined;
      if (filed !== undefined) for (const form of filed) take(form, at);
      if (this.single.size > 0 && this.single.has(text[at])) take(text[at], at);
    }
  }
}

/** The spans of `text` where a form of a secret of `indexes` is, as `view` (decoded from `text` by `back`) shows them. */
function searchView(viewText: string, back: (start: number, end: number) => Span, indexes: readonly SecretIndex[], spans: Span[]): void {
  for (const index of indexes) index.search(viewText, (start, end) => spans.push(back(start, end)));
}

/**
 * Where in `text` each secret of `indexes` is, in every form the module comment lists: spans
 * of `text`, which may overlap. Never throws on any text or secret.
 */
export function secretSpans(text: string, indexes: readonly SecretIndex[]): Span[] {
  const spans: Span[] = [];
  if (indexes.every((index) => index.size === 0) || text.length === 0) return spans;
  searchView(text, (start, end) => ({ start, end }), indexes, spans);
  for (const first of DECODERS) {
    const once = first(text);
    if (once === undefined) continue;
    const onceBack = (start: number, end: number): Span => ({ start: once.from[start], end: once.to[end - 1] });
    searchView(once.text, onceBack, indexes, spans);
    for (const second of DECODERS) {
      const twice = second(once.text);
      if (twice === undefined) continue;
      searchView(twice.text, (start, end) => onceBack(twice.from[start], twice.to[end - 1]), indexes, spans);
    }
  }
  return spans;
}

/** `text` with each of `spans` (which may overlap) replaced by `mask`, overlapping or touching spans as one. */
export function maskSpans(text: string, spans: readonly Span[], mask: string): string {
  if (spans.length === 0) return text;
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const parts: string[] = [];
  let kept = 0;
  let open: { start: number; end: number } | undefined;
  for (const span of sorted) {
    if (open !== undefined && span.start <= open.end) {
      open.end = Math.max(open.end, span.end);
      continue;
    }
    if (open !== undefined) {
      parts.push(text.slice(kept, open.start), mask);
      kept = open.end;
    }
    open = { start: span.start, end: span.end };
  }
  if (open !== undefined) parts.push(text.slice(kept, open.start), mask);
  parts.push(text.slice(open === undefined ? kept : open.end));
  return parts.join("");
}
