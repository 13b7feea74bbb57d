/**
 * Local check against the passwords attackers try first (no network: NIST SP 800-63B §5.1.1.2
 * asks to refuse "commonly-used, expected or compromised" values). The list holds the base words
 * that dominate public breach-frequency lists; a candidate is reduced to its base before the
 * lookup — lower-cased, common character substitutions undone (P@ssw0rd → password), and the
 * digits and symbols people append or prepend stripped (Password1!, 2024Summer) — so the
 * thousands of decorated variants of one word are caught by one entry.
 */
const BASE_WORDS = `
password passwort passe contrasena senha parola sifre wachtwoord haslo salasana qwerty qwertz azerty
asdf asdfgh asdfghjkl zxcvbn zxcvbnm qazwsx qwertyuiop letmein welcome welcomeback login admin
administrator root user guest test tester demo default changeme secret iloveyou loveyou lovely
monkey dragon master shadow sunshine princess football baseball basketball soccer hockey superman
batman starwars pokemon minecraft whatever trustno nothing freedom abc abcd abcdef abcdefg
abcdefgh abc123 michael jennifer jordan hunter ranger thomas charlie daniel andrew joshua jessica
ashley amanda nicole michelle matthew robert george summer winter spring autumn flower cookie
chocolate pepper ginger banana orange purple yellow silver golden diamond angel angels family
friends computer internet google samsung apple iphone android windows linux mustang ferrari
porsche corvette harley yamaha killer pussy fuckyou biteme access hello helloworld hellokitty
cheese coffee maggie buster tigger ginger daisy lucky bailey charlie snoopy garfield matrix
merlin phoenix falcon eagle tiger lion wolf bear soccer liverpool chelsea arsenal barcelona
madrid juventus galatasaray fenerbahce besiktas trabzonspor istanbul ankara turkey london paris
berlin newyork america canada mother father sister brother baby babygirl babyboy love lover
sexy hottie blink blessed jesus christ god heaven trinity genesis destiny forever together
secure security private passcode pass word key keys open sesame opensesame zaq zaqxsw
`;

const COMMON = new Set(BASE_WORDS.split(/\s+/).filter((w) => w.length > 0));

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g', '@': 'a', $: 's', '!': 'i', '|': 'l', '+': 't' };

function strip(s: string): string {
  return s.replace(/^[^a-z]+/, '').replace(/[^a-z]+$/, '');
}

/** True when the password is, or decorates, a password attackers try first. */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (/^(.)\1+$/.test(lower)) return true; // aaaaaaaa, 11111111
  if (/^\d+$/.test(lower) || '0123456789012345678909876543210'.includes(lower)) return true;
  const candidates = new Set<string>();
  candidates.add(strip(lower));
  // Undo substitutions in the middle, keep leading/trailing decoration to strip afterwards.
  const unleet = [...lower].map((c, i, all) => (i > 0 && i < all.length - 1 && /[a-z]/.test(all[i - 1]! + all[i + 1]!) ? (LEET[c] ?? c) : c)).join('');
  candidates.add(strip(unleet));
  candidates.add(strip([...lower].map((c) => LEET[c] ?? c).join('')));
  for (const c of candidates) {
    if (c.length === 0) continue;
    if (COMMON.has(c) || /^(.)\1+$/.test(c)) return true;
    // The word repeated (passwordpassword) or doubled with itself reversed.
    const half = c.length / 2;
    if (Number.isInteger(half) && c.slice(0, half) === c.slice(half) && COMMON.has(c.slice(0, half))) return true;
  }
  return false;
}
