import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client.ts';

/**
 * Puts the server's field-level validation issues (400 validation_failed) under the matching
 * fields. Returns true when at least one issue was placed.
 */
export function applyServerIssues<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, fields: ReadonlyArray<Path<T>>): boolean {
  if (!(error instanceof ApiError) || !error.issues) return false;
  let isPlaced = false;
  for (const issue of error.issues) {
    const field = issue.path[0];
    const match = fields.find((f) => f === field);
    if (match) {
      setError(match, { type: 'server', message: issue.message });
      isPlaced = true;
    }
  }
  return isPlaced;
}
