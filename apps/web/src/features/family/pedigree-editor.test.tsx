import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyPedigree, initialMembers, PedigreeField, type PedigreeValue } from './pedigree-editor.tsx';

afterEach(cleanup);

describe('PedigreeField', () => {
  it('names each row’s Remove button by its sample, so a keyboard or screen-reader user knows which person it removes', () => {
    const value: PedigreeValue = { ...emptyPedigree, mode: 'editor', members: initialMembers(['HG002', 'HG003', 'HG004'], 'male') };
    const onChange = vi.fn<(v: PedigreeValue) => void>();
    render(<PedigreeField value={value} onChange={onChange} samples={['HG002', 'HG003', 'HG004']} probandSex="male" />);
    expect(screen.getAllByRole('button', { name: /^Remove sample/ }).map((b) => b.getAttribute('aria-label'))).toEqual([
      'Remove sample 1 (HG002)',
      'Remove sample 2 (HG003)',
      'Remove sample 3 (HG004)',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Remove sample 2 (HG003)' }));
    expect(onChange.mock.calls[0]?.[0].members.map((m) => m.sample)).toEqual(['HG002', 'HG004']);
  });
});
