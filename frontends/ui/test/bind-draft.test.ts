import type { ChangeEvent } from 'react';
import { describe, expect, it } from 'vitest';
import { bindDraft } from '../src/index';

interface Draft {
  startDate: string;
  usefulLife: string;
  assetTypeId: string | null;
}

const typed = (value: string) => ({ target: { value } }) as ChangeEvent<HTMLInputElement>;

describe('bindDraft', () => {
  it("gives a field its key's text and problem, and a change that names the key", () => {
    const changes: Partial<Draft>[] = [];
    const field = bindDraft<Draft>({ startDate: '2026-01-31', usefulLife: '', assetTypeId: null }, { usefulLife: 'Useful life is required' }, (next) =>
      changes.push(next),
    );
    const life = field('usefulLife');
    expect([life.name, life.value, life.error]).toEqual(['usefulLife', '', 'Useful life is required']);
    life.onChange(typed('5'));
    expect(changes).toEqual([{ usefulLife: '5' }]);
    expect(field('startDate').error).toBeUndefined();
    // A null key reads as an empty field, never "null".
    expect(field('assetTypeId').value).toBe('');
  });

  it('names the field as the API does while the draft keeps its own key', () => {
    const changes: Partial<Draft>[] = [];
    const start = bindDraft<Draft>({ startDate: '2026-01-31', usefulLife: '3', assetTypeId: null }, {}, (next) => changes.push(next))(
      'startDate',
      'accrualStartDate',
    );
    expect([start.name, start.value]).toEqual(['accrualStartDate', '2026-01-31']);
    start.onChange(typed('2026-02-01'));
    expect(changes).toEqual([{ startDate: '2026-02-01' }]);
  });
});
