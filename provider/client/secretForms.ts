/**
 * Every form a secret can take in text that reaches a message: a secret leaves this machine
 * in a header, a URL or a JSON body, and comes back echoed by whatever answered (a
 * redirect's `Location`, an error page that quotes the request, a gateway's log line), in
 * the encoding of where it was put. {@link secretPattern} matches the secret written raw or
 * with any of its characters, in any mix:
 * - percent-encoded (`%40`, `%4a` or `%4A`, as `encodeURIComponent`, a form or a strict
 *   encoder writes it), twice percent-encoded (`%2540`), a space as a form's `+`;
 * - JSON-escaped (`\"`, `\\`, `\/`, `\n`, `\u00e9`, surrogate pairs), and escaped again
 *   (a JSON body quoted inside a JSON string: `\\\"`);
 * - as an HTML character reference (`&quot;`, `&#34;`, `&#x22;`);
 * and the secret base64-encoded (standard and URL-safe alphabets, at each of the three
 * alignments it can take inside a longer base64 text, as in `Basic <user:password>`), for a
 * secret of {@link MIN_BASE64_LENGTH} characters or more.
 */

/** Secrets shorter than this are not looked for in base64: their encoding is too short to tell from other text. */
export const MIN_BASE64_LENGTH = 8;

/** `[aA]`-style alternatives for each hex digit of `n` (two digits when `width` is 2, four for 4). */
function hexPattern(n: number, width: number): string {
  return n
    .toString(16)
    .padStart(width, "0")
    .split("")
    .map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d))
    .join("");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** The JSON short escapes (`"` is written `\"`). */
const JSON_SHORT: Readonly<Record<string, string>> = {
  '"': '\\"',
  "\\": "\\\\",
  "/": "\\/",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/** The named HTML references of the characters that have one in common use. */
const HTML_NAMED: Readonly<Record<string, readonly string[]>> = {
  "&": ["&amp;"],
  "<": ["&lt;"],
  ">": ["&gt;"],
  '"': ["&quot;"],
  "'": ["&apos;", "&#39;"],
};

/**
 * Every way one character (a code point) may be written, as a regular expression
 * alternation: the longer encodings first, so a match never stops inside one (`&#38;` is
 * `&`, not `&` followed by `#38;`).
 */
function charPattern(ch: string): string {
  const forms: string[] = [];
  const bytes = [...Buffer.from(ch, "utf8")];
  // JSON: \uXXXX (a surrogate pair beyond the BMP), the short escape, each escaped once more.
  const units = ch.split("").map((u) => `\\\\u${hexPattern(u.charCodeAt(0), 4)}`);
  const short = JSON_SHORT[ch];
  forms.push(units.map((u) => `\\\\${u}`).join(""), units.join(""));
  if (short !== undefined) forms.push(escapeRegExp(JSON.stringify(short).slice(1, -1)), escapeRegExp(short));
  forms.push(bytes.map((b) => `%25${hexPattern(b, 2)}`).join(""), bytes.map((b) => `%${hexPattern(b, 2)}`).join(""));
  const code = ch.codePointAt(0)!;
  forms.push(`&#0*${code};`, `&#[xX]0*${hexPattern(code, 1)};`, ...(HTML_NAMED[ch] ?? []).map(escapeRegExp));
  if (ch === " ") forms.push("\\+");
  forms.push(escapeRegExp(ch));
  return `(?:${forms.join("|")})`;
}

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
  return [...forms].map(escapeRegExp);
}

const patterns = new Map<string, RegExp>();

/**
 * A global regular expression matching `secret` in every form the module comment lists.
 * Built once per secret. Never throws.
 */
export function secretPattern(secret: string): RegExp {
  let pattern = patterns.get(secret);
  if (pattern === undefined) {
    const spelled = Array.from(secret, charPattern).join("");
    const alternatives = [spelled, ...(secret.length >= MIN_BASE64_LENGTH ? base64Forms(secret) : [])];
    pattern = new RegExp(alternatives.join("|"), "g");
    patterns.set(secret, pattern);
  }
  pattern.lastIndex = 0;
  return pattern;
}
