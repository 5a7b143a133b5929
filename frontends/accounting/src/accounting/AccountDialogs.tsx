import {
  describeError,
  useOpeningBalance,
  useSetOpeningBalance,
  toApiError,
  useAddChartAccount,
  useDeleteChartAccounts,
  useMoveChartAccount,
  useUpdateChartAccount,
  type AccountTreeNode,
  type ChartParentCategory,
} from '@ledgerline/api';
import {
  canHaveOpeningBalance,
  parseOpeningBalance,
  validateOpeningBalance,
  type OpeningBalanceFormErrors,
  type OpeningBalanceFormValues,
} from './opening-balance';
import { Button, Combobox, DatePicker, Dialog, Spinner, TextField, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useState, type FormEvent } from 'react';
import { type AccountFormErrors, type AccountFormValues, moveTargets, validateAccountForm } from './rules';

const pathTitle = (c: ChartParentCategory) => `${c.path.names.join(' / ')} (${c.coaId})`;

/** A server refusal that names a field lands under that field; anything else is a notice. */
function fieldOf(error: unknown): keyof AccountFormValues | null {
  const field = toApiError(error).field;
  return field === 'name' || field === 'coaId' || field === 'parentId' ? field : null;
}

interface AccountFormDialogProps {
  mode: 'add' | 'edit';
  open: boolean;
  onClose: () => void;
  parents: readonly ChartParentCategory[];
  /** The account being edited, or the parent an added account goes under (null: the person picks it). */
  account: AccountTreeNode | null;
  parentId?: string | null;
  /** Told the saved account's path (its ancestors' ids and its own), so the tree can show it. */
  onSaved?: (pathIds: readonly string[]) => void;
}

/** Add an account under a parent (POST /categories) or rename / renumber one (PATCH /categories/update). */
export function AccountFormDialog({ mode, open, onClose, parents, account, parentId = null, onSaved }: AccountFormDialogProps) {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const add = useAddChartAccount();
  const update = useUpdateChartAccount();
  const [values, setValues] = useState<AccountFormValues>(() =>
    mode === 'edit' && account
      ? { name: account.name, coaId: String(account.coaId), parentId: account.parentId ?? '' }
      : { name: '', coaId: '', parentId: parentId ?? '' },
  );
  const [errors, setErrors] = useState<AccountFormErrors>({});
  const [submitted, setSubmitted] = useState(false);
  // Bank, card, asset, liability and equity accounts: the opening balance beside the name (issue #12; the ledger
  // README's missing field pair), GET and PUT /categories/{id}/opening-balance.
  const withOpening = mode === 'edit' && account !== null && canHaveOpeningBalance(account);
  const opening = useOpeningBalance(withOpening ? account.id : null);
  const setOpening = useSetOpeningBalance();
  const savedOpening: OpeningBalanceFormValues = {
    openingBalance: opening.data?.openingBalance ? String(opening.data.openingBalance.openingBalance) : '',
    openingBalanceDate: opening.data?.openingBalance?.openingBalanceDate ?? '',
  };
  const [openingValues, setOpeningValues] = useState<OpeningBalanceFormValues | null>(null);
  const openingShown = openingValues ?? savedOpening;
  const [openingErrors, setOpeningErrors] = useState<OpeningBalanceFormErrors>({});
  const pending = add.isPending || update.isPending || setOpening.isPending;
  const setOpeningField = (name: keyof OpeningBalanceFormValues, value: string) => {
    const next = { ...openingShown, [name]: value };
    setOpeningValues(next);
    if (submitted) setOpeningErrors(validateOpeningBalance(next));
  };

  const set = (name: keyof AccountFormValues, value: string) => {
    const next = { ...values, [name]: value };
    setValues(next);
    // After a first Save the messages follow the input, so a fixed field loses its message at once.
    if (submitted) setErrors(validateAccountForm(next, mode));
  };

  const onFailure = (error: unknown) => {
    const field = fieldOf(error);
    if (field) setErrors((e) => ({ ...e, [field]: toApiError(error).message }));
    else showError(error);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validateAccountForm(values, mode);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const name = values.name.trim();
    const coaId = Number(values.coaId);
    if (mode === 'add') {
      add.mutate(
        { name, coaId, parentId: values.parentId },
        {
          onSuccess: (answer) => {
            notice.success(answer.message);
            onSaved?.(answer.category.path.ids);
            onClose();
          },
          onError: onFailure,
        },
      );
    } else if (account) {
      const foundOpening = withOpening ? validateOpeningBalance(openingShown) : {};
      setOpeningErrors(foundOpening);
      if (Object.keys(foundOpening).length > 0) return;
      const amount = openingShown.openingBalance.trim() === '' ? 0 : parseOpeningBalance(openingShown.openingBalance);
      const openingChanged =
        withOpening &&
        openingValues !== null &&
        (openingShown.openingBalance !== savedOpening.openingBalance || openingShown.openingBalanceDate !== savedOpening.openingBalanceDate);
      const saveOpening = () =>
        setOpening.mutate(
          // 0 removes it; the date is then the one it had (the server needs one).
          { categoryId: account.id, openingBalance: amount ?? 0, openingBalanceDate: openingShown.openingBalanceDate || savedOpening.openingBalanceDate },
          {
            onSuccess: (answer) => {
              notice.success(answer.message);
              onClose();
            },
            onError: (error) => {
              const field = toApiError(error).field;
              if (field === 'openingBalance' || field === 'openingBalanceDate') setOpeningErrors({ [field]: toApiError(error).message });
              else showError(error);
            },
          },
        );
      const detailsChanged = name !== account.name || coaId !== account.coaId;
      if (!detailsChanged && openingChanged) {
        saveOpening();
        return;
      }
      update.mutate(
        { id: account.id, name, coaId },
        {
          onSuccess: (answer) => {
            notice.success(answer.message);
            if (openingChanged) saveOpening();
            else onClose();
          },
          onError: onFailure,
        },
      );
    }
  };

  const formId = `account-form-${mode}`;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={mode === 'add' ? 'Add account' : `Edit ${account?.name ?? 'account'}`}
      description={
        mode === 'add'
          ? 'A new account of the chart, under the parent you choose.'
          : withOpening
            ? 'Rename the account, change its number, or set the balance it had before the first transaction in the books.'
            : 'Rename the account or change its number.'
      }
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={pending}>
            {mode === 'add' ? 'Add account' : 'Save'}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate className="space-y-4" onSubmit={submit}>
        <TextField label="Name" name="name" required autoComplete="off" value={values.name} error={errors.name} onChange={(e) => set('name', e.target.value)} />
        <TextField
          label="Account number (coaId)"
          name="coaId"
          required
          inputMode="numeric"
          autoComplete="off"
          hint="At least 10000."
          value={values.coaId}
          error={errors.coaId}
          onChange={(e) => set('coaId', e.target.value.replace(/\s/g, ''))}
        />
        {withOpening && (
          <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700">
            <legend className="px-1 text-sm font-medium text-slate-900 dark:text-slate-100">Opening balance</legend>
            {opening.isPending ? (
              <Spinner label="Loading the opening balance" />
            ) : (
              <>
                <TextField
                  label="Opening balance"
                  name="openingBalance"
                  inputMode="decimal"
                  autoComplete="off"
                  hint="Dollars, booked against Opening Balance Equity. Negative for an overdrawn account; 0 removes it."
                  value={openingShown.openingBalance}
                  error={openingErrors.openingBalance}
                  onChange={(e) => setOpeningField('openingBalance', e.target.value.replace(/\s/g, ''))}
                />
                <DatePicker
                  label="Opening balance date"
                  name="openingBalanceDate"
                  value={openingShown.openingBalanceDate === '' ? null : openingShown.openingBalanceDate}
                  error={openingErrors.openingBalanceDate}
                  onChange={(date) => setOpeningField('openingBalanceDate', date)}
                />
              </>
            )}
          </fieldset>
        )}
        {mode === 'add' && (
          <Combobox
            label="Parent account"
            name="parentId"
            required
            placeholder="Search accounts"
            options={parents.map((p) => ({ value: p.id, title: pathTitle(p) }))}
            value={values.parentId === '' ? null : values.parentId}
            error={errors.parentId}
            onChange={(v) => set('parentId', v)}
          />
        )}
      </form>
    </Dialog>
  );
}

/** PATCH /categories/move: the account (with its sub-accounts) under another parent of its class. */
export function MoveAccountDialog({
  open,
  onClose,
  parents,
  account,
  onSaved,
}: {
  open: boolean;
  onClose: () => void;
  parents: readonly ChartParentCategory[];
  account: AccountTreeNode;
  onSaved?: (pathIds: readonly string[]) => void;
}) {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const move = useMoveChartAccount();
  const [parentId, setParentId] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>(undefined);
  const targets = moveTargets(parents, account);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Move ${account.name}`}
      description={
        targets.length === 0
          ? 'There is no other place in its category type this account can go.'
          : 'Its sub-accounts move with it; it stays in its category type.'
      }
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={move.isPending}
            disabled={targets.length === 0}
            onClick={() => {
              if (parentId === null) {
                setError('Parent account is required');
                return;
              }
              move.mutate(
                { categoryId: account.id, parentId },
                {
                  onSuccess: (answer) => {
                    notice.success(answer.message);
                    onSaved?.(answer.category.path.ids);
                    onClose();
                  },
                  onError: showError,
                },
              );
            }}
          >
            Move
          </Button>
        </>
      }
    >
      {targets.length > 0 && (
        <Combobox
          label="New parent account"
          name="parentId"
          required
          placeholder="Search accounts"
          options={targets.map((p) => ({ value: p.id, title: pathTitle(p) }))}
          value={parentId}
          error={error}
          onChange={(v) => {
            setParentId(v);
            setError(undefined);
          }}
        />
      )}
    </Dialog>
  );
}

/** DELETE /categories/delete after confirming; the server's refusal (an account with lines...) is shown in place. */
export function DeleteAccountDialog({ open, onClose, account }: { open: boolean; onClose: () => void; account: AccountTreeNode }) {
  const notice = useNotice();
  const remove = useDeleteChartAccounts();
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Remove ${account.name}?`}
      description="An account that nothing was ever booked to can be removed. This cannot be undone."
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {refusal ? 'Close' : 'Cancel'}
          </Button>
          <Button
            variant="danger"
            loading={remove.isPending}
            disabled={refusal !== null}
            onClick={() =>
              remove.mutate([account.id], {
                onSuccess: (answer) => {
                  notice.success(answer.message);
                  onClose();
                },
                onError: (error) => {
                  const described = describeError(error);
                  if (described) setRefusal(described.message);
                },
              })
            }
          >
            Remove
          </Button>
        </>
      }
    >
      {refusal && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100">
          {refusal}
        </p>
      )}
    </Dialog>
  );
}
