import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepDigits, OtpInput } from './otp-input.tsx';

afterEach(cleanup);

function Harness({ onComplete }: { onComplete?: (v: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <>
      <OtpInput value={value} onChange={setValue} onComplete={onComplete} />
      <output data-testid="value">{value}</output>
    </>
  );
}

const box = (n: number) => screen.getByLabelText(`Digit ${n} of 6`);

/** Renders the harness and clicks the first box, ready for the keyboard or a paste. */
async function focusFirstBox(props: { onComplete?: (v: string) => void } = {}) {
  const user = userEvent.setup();
  render(<Harness {...props} />);
  await user.click(box(1));
  return user;
}

describe('OtpInput', () => {
  it('keeps digits only from any text', () => {
    expect(keepDigits('12a-3 4b56')).toBe('123456');
    expect(keepDigits('abc')).toBe('');
  });

  it('accepts digits, ignores letters and moves focus to the next box', async () => {
    const user = await focusFirstBox();
    await user.keyboard('1a2B!3');
    expect(screen.getByTestId('value')).toHaveTextContent(/^123$/);
    expect(box(1)).toHaveValue('1');
    expect(box(3)).toHaveValue('3');
    expect(box(4)).toHaveFocus();
  });

  it('fills all boxes from a pasted code with separators and reports completion once', async () => {
    const onComplete = vi.fn();
    const user = await focusFirstBox({ onComplete });
    await user.paste('98-76 54');
    expect(screen.getByTestId('value')).toHaveTextContent(/^987654$/);
    expect(onComplete).toHaveBeenCalledTimes(1);
    expect(onComplete).toHaveBeenCalledWith('987654');
  });

  it('never grows beyond six digits', async () => {
    const user = await focusFirstBox();
    await user.paste('1234567890');
    expect(screen.getByTestId('value')).toHaveTextContent(/^123456$/);
  });

  it('backspace in an empty box clears the previous digit and moves back', async () => {
    const user = await focusFirstBox();
    await user.keyboard('12');
    expect(box(3)).toHaveFocus();
    await user.keyboard('{Backspace}');
    expect(screen.getByTestId('value')).toHaveTextContent(/^1$/);
    expect(box(2)).toHaveFocus();
  });

  it('a click on a box past the end focuses the first empty box', () => {
    render(<Harness />);
    fireEvent.focus(box(5));
    expect(box(1)).toHaveFocus();
  });

  it('uses a numeric keyboard and offers one-time-code autofill', () => {
    render(<Harness />);
    expect(box(1)).toHaveAttribute('inputmode', 'numeric');
    expect(box(1)).toHaveAttribute('autocomplete', 'one-time-code');
  });
});
