import '@testing-library/jest-dom/vitest';
import type { CaseTerm, PhenomeTermDto, TermRef } from '@rarelens/contract';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../testing/render.tsx';
import { PhenomeSuggestions } from './phenome-suggestions.tsx';

type Call = { text: string; signal: AbortSignal | undefined };
let calls: Call[] = [];

/**
 * A toy extractor on the server side of the stub: finds a few words, with "no" negating and
 * "mother" moving to family; an inheritance mode or onset is returned among the modifiers, the
 * onset with category 'onset' (as the server marks it).
 */
function extract(text: string): { terms: PhenomeTermDto[]; modifiers: PhenomeTermDto[] } {
  const lexicon: Array<[string, string, string]> = [
    ['seizures', 'HP:0001250', 'Seizure'],
    ['hypotonia', 'HP:0001252', 'Hypotonia'],
    ['cataract', 'HP:0000518', 'Cataract'],
    ['proptosis', 'HP:0000520', 'Proptosis'],
    ['autosomal dominant', 'HP:0000006', 'Autosomal dominant inheritance'],
    ['childhood onset', 'HP:0011463', 'Childhood onset'],
  ];
  const modifierIds = new Set(['HP:0000006', 'HP:0011463']);
  const terms: PhenomeTermDto[] = [];
  for (const [word, id, label] of lexicon) {
    const start = text.toLowerCase().indexOf(word);
    if (start < 0) continue;
    const sentence = text.slice(text.lastIndexOf('.', start) + 1, start).toLowerCase();
    terms.push({
      id,
      label,
      start,
      end: start + word.length,
      text: text.slice(start, start + word.length),
      negated: /\bno\b/.test(sentence),
      subject: /\bmother\b/.test(sentence) ? 'family' : 'patient',
      confidence: 0.9,
      ...(id === 'HP:0011463' ? { category: 'onset' as const } : {}),
    });
  }
  return {
    terms: terms.filter((t) => !modifierIds.has(t.id)),
    modifiers: terms.filter((t) => modifierIds.has(t.id)),
  };
}

beforeEach(() => {
  calls = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    expect(url).toBe('/api/phenome/extract');
    if (typeof init.body !== 'string') throw new Error('the extraction request has a JSON body');
    const { text } = JSON.parse(init.body) as { text: string };
    calls.push({ text, signal: init.signal ?? undefined });
    const body = { hpoVersion: '2025-05-06', ...extract(text), llmUsed: false };
    return new Promise<Response>((resolve, reject) => {
      // Answers after 800 ms (longer than the 400 ms pause), unless aborted first.
      const timer = setTimeout(
        () => resolve(new Response(JSON.stringify(body), { status: 200 })),
        800,
      );
      init.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new DOMException('aborted', 'AbortError'));
      });
    });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Harness() {
  const [text, setText] = useState('');
  const [terms, setTerms] = useState<CaseTerm[]>([]);
  const [excluded, setExcluded] = useState<TermRef[]>([]);
  return (
    <>
      <textarea aria-label="Symptoms" value={text} onChange={(e) => setText(e.target.value)} />
      <PhenomeSuggestions
        text={text}
        selected={terms}
        onAddTerm={(t) => setTerms((list) => [...list, t])}
        excluded={excluded}
        onAddExcludedTerm={(t) => setExcluded((list) => [...list, t])}
      />
      <output data-testid="terms">{terms.map((t) => `${t.id}${t.onset ? '(onset)' : ''}`).join(',')}</output>
      <output data-testid="excluded">{excluded.map((t) => t.id).join(',')}</output>
    </>
  );
}

function renderHarness() {
  renderApp(<Harness />);
}

describe('PhenomeSuggestions', () => {
  it('waits for a pause in typing, then asks once for the whole text', async () => {
    const user = userEvent.setup();
    renderHarness();
    await user.type(screen.getByLabelText('Symptoms'), 'Hypotonia');
    await screen.findByRole(
      'button',
      { name: 'Accept: Hypotonia (HP:0001252)' },
      { timeout: 3000 },
    );
    // Nine keystrokes, one request (two at most if the machine stalls mid-typing).
    expect(calls.length).toBeLessThanOrEqual(2);
    expect(calls.at(-1)?.text).toBe('Hypotonia');
  });

  it('aborts the request of a text that changed before the answer came', async () => {
    const user = userEvent.setup();
    renderHarness();
    await user.click(screen.getByLabelText('Symptoms'));
    await user.paste('Seizures and hypotonia');
    await waitFor(() => expect(calls).toHaveLength(1));
    // The server has not answered yet (it takes 800 ms): the next words supersede that request.
    await user.paste(', proptosis');
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[0]?.signal?.aborted).toBe(true);
    expect(calls[1]?.text).toBe('Seizures and hypotonia, proptosis');
    expect(
      await screen.findByRole(
        'button',
        { name: 'Accept: Proptosis (HP:0000520)' },
        { timeout: 3000 },
      ),
    ).toBeInTheDocument();
  });

  it('adds accepted terms, the rest with "Accept all" (not the rejected one), and a negated finding as excluded', async () => {
    const user = userEvent.setup();
    renderHarness();
    await user.type(
      screen.getByLabelText('Symptoms'),
      'Seizures, hypotonia and proptosis. No cataract.',
    );
    await screen.findByRole('button', { name: 'Accept all' }, { timeout: 3000 });
    // The family group holds nothing here (the first "seizures" is the patient's); the negation is its own group.
    expect(screen.getByRole('list', { name: 'Excluded — stated absent (1)' })).toHaveTextContent(
      'Cataract',
    );
    await user.click(screen.getByRole('button', { name: 'Reject Proptosis (HP:0000520)' }));
    await user.click(screen.getByRole('button', { name: 'Accept all' }));
    expect(screen.getByTestId('terms')).toHaveTextContent('HP:0001250,HP:0001252');
    await user.click(
      screen.getByRole('button', { name: 'Accept as excluded: Cataract (HP:0000518)' }),
    );
    expect(screen.getByTestId('excluded')).toHaveTextContent('HP:0000518');
    expect(screen.getByTestId('phenome-tally')).toHaveTextContent('3 accepted');
    const marks = screen.getAllByTestId('phenome-mark');
    expect(marks.map((m) => [m.textContent, m.dataset.state])).toEqual([
      ['Seizures', 'accepted'],
      ['hypotonia', 'accepted'],
      ['proptosis', 'rejected'],
      ['cataract', 'accepted'],
    ]);
  });

  it('keeps a relative’s finding apart from the proposals', async () => {
    const user = userEvent.setup();
    renderHarness();
    await user.type(screen.getByLabelText('Symptoms'), 'Mother has cataract. Hypotonia.');
    const family = await screen.findByRole(
      'list',
      { name: 'Family history (1)' },
      { timeout: 3000 },
    );
    expect(family).toHaveTextContent('Cataract');
    expect(screen.getByRole('list', { name: 'Proposed phenotypes (1)' })).not.toHaveTextContent(
      'Cataract',
    );
  });

  it('proposes the patient’s onset as a term to accept, and shows the inheritance as noted, not as a term', async () => {
    const user = userEvent.setup();
    renderHarness();
    await user.type(
      screen.getByLabelText('Symptoms'),
      'Hypotonia with childhood onset; autosomal dominant.',
    );
    const noted = await screen.findByTestId('phenome-also-noted', {}, { timeout: 3000 });
    expect(noted).toHaveTextContent(
      'Also noted (not symptoms, not added as terms): Autosomal dominant inheritance',
    );
    const proposed = screen.getByRole('list', { name: 'Proposed phenotypes (2)' });
    expect(proposed).toHaveTextContent('Hypotonia');
    expect(proposed).toHaveTextContent('Childhood onset');
    expect(screen.queryByRole('button', { name: /Autosomal dominant/ })).toBeNull();
    expect(screen.getAllByTestId('phenome-mark').map((m) => m.textContent)).toEqual(['Hypotonia', 'childhood onset']);
    await user.click(screen.getByRole('button', { name: 'Accept: Hypotonia (HP:0001252)' }));
    await user.click(screen.getByRole('button', { name: 'Accept: Childhood onset (HP:0011463)' }));
    expect(screen.getByTestId('terms')).toHaveTextContent(/^HP:0001252,HP:0011463\(onset\)$/);
  });

  it('keeps a relative’s finding in the family history when the patient has the same term, and does not count it as accepted', async () => {
    const user = userEvent.setup();
    renderHarness();
    await user.type(screen.getByLabelText('Symptoms'), 'Hypotonia and cataract. Mother has seizures.');
    await user.click(await screen.findByRole('button', { name: 'Accept all' }, { timeout: 3000 }));
    expect(screen.getByTestId('phenome-tally')).toHaveTextContent('2 accepted');
    // The patient has seizures too: the family finding stays listed, marked, and is no proposal accepted.
    await user.click(screen.getByRole('button', { name: 'Add to the patient anyway: Seizure (HP:0001250)' }));
    expect(screen.getByTestId('terms')).toHaveTextContent('HP:0001252,HP:0000518,HP:0001250');
    const family = screen.getByRole('list', { name: 'Family history (1)' });
    expect(family).toHaveTextContent('Seizure');
    expect(family).toHaveTextContent('the patient has it too');
    expect(screen.getByTestId('phenome-tally')).toHaveTextContent('2 accepted');
  });

  it('shows nothing for an empty text and sends nothing', async () => {
    renderHarness();
    await act(() => new Promise((r) => setTimeout(r, 500)));
    expect(calls).toHaveLength(0);
    expect(screen.queryByTestId('phenome-box')).toBeNull();
  });
});
