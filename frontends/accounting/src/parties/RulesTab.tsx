import {
  AMOUNT_SIGNS,
  DESCRIPTION_SIGNS,
  describeError,
  useBankAccounts,
  useCategories,
  useDeleteVendorRule,
  useSaveVendorRule,
  useVendor,
  useVendorList,
  useVendorRule,
  useVendorRules,
  validateVendorRule,
  vendorRuleBody,
  type AmountSign,
  type DescriptionSign,
  type VendorRule,
  type VendorRuleErrors,
  type VendorRuleForm,
} from '@ledgerline/api';
import { describeVendorRule, impactedCount, vendorRuleForm } from './vendor-rules';
import { Button, Combobox, EmptyState, RecordLink, Select, Spinner, TextField, useNotice } from '@ledgerline/ui';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { categoryOptions } from '../transactions/category-options';
import { useEditAccess } from '../transactions/access';
import { DialogMessage, FOLD, PartyTable, TD, TH, serverError, PartyDialog } from './common';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ALL_VENDORS = { search: '', status: '', filter: '' } as const;

/** Transactions → Rules (`?tab=rules`, `?rule=<id>` opens one, `mode=create` a new one): spec §2, §3, §5. */
export function RulesTab() {
  const [params, setParams] = useSearchParams();
  const rawRule = params.get('rule');
  const openId = rawRule !== null && UUID.test(rawRule) ? rawRule : null;
  const creating = params.get('mode') === 'create';
  const rules = useVendorRules();
  const access = useEditAccess();
  const open = (change: { rule?: string; mode?: string }) => setParams(new URLSearchParams({ tab: 'rules', ...change }));

  return (
    <section aria-label="Vendor rules">
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <p className="text-sm text-slate-600 dark:text-slate-400">Rules give a vendor&apos;s matching transactions a category, from the date you choose on.</p>
        <Button size="sm" className="ml-auto" disabled={!access.canEdit} title={access.reason ?? undefined} onClick={() => open({ mode: 'create' })}>
          New rule
        </Button>
      </div>
      {access.reason && <p className="mb-2 text-sm text-amber-700 dark:text-amber-400">{access.reason}</p>}
      {rules.isPending ? (
        <Spinner label="Loading rules" />
      ) : rules.isError ? (
        <EmptyState
          title="Rules could not be loaded"
          description={rules.error.statusCode === 404 ? 'This server does not offer vendor rules yet.' : describeError(rules.error)?.message}
        />
      ) : rules.data.data.length === 0 ? (
        <EmptyState title="No rules" description="Create a rule to categorise a vendor's transactions automatically." />
      ) : (
        <PartyTable
          label="Vendor rules"
          head={
            <tr>
              <th scope="col" className={TH}>
                Name
              </th>
              <th scope="col" className={`${TH} ${FOLD}`}>
                Vendor
              </th>
              <th scope="col" className={`${TH} ${FOLD}`}>
                Category
              </th>
              <th scope="col" className={`${TH} ${FOLD}`}>
                Conditions
              </th>
              <th scope="col" className={`${TH} w-28 text-right`}>
                Applied to
              </th>
            </tr>
          }
        >
          {rules.data.data.map((r) => (
            <tr key={r.id} className="h-9">
              <td className={TD}>
                <RecordLink onOpen={() => open({ rule: r.id })}>{r.name}</RecordLink>
              </td>
              <td className={`${TD} ${FOLD}`}>{r.vendor?.name ?? '—'}</td>
              <td className={`${TD} ${FOLD}`}>{r.category?.name ?? '—'}</td>
              <td className={`${TD} ${FOLD}`}>{describeVendorRule(r)}</td>
              <td className={`${TD} text-right tabular-nums`}>{impactedCount(r) ?? '—'}</td>
            </tr>
          ))}
        </PartyTable>
      )}
      {creating && <RuleEditor rule={null} onClose={() => open({})} />}
      {openId !== null && <OpenRule id={openId} onClose={() => open({})} />}
    </section>
  );
}

function OpenRule({ id, onClose }: { id: string; onClose: () => void }) {
  const rule = useVendorRule(id);
  if (rule.isPending) return null;
  if (rule.isError)
    return (
      <PartyDialog open onClose={onClose} title="Rule not found" actions={<Button onClick={onClose}>Close</Button>}>
        <p className="text-sm">{describeError(rule.error)?.message}</p>
      </PartyDialog>
    );
  return <RuleEditor rule={rule.data} onClose={onClose} />;
}

/**
 * A rule's editor: an existing rule, or a new one (blank, or `initial` when made from a transaction in its drawer).
 */
export function RuleEditor({ rule, initial, onClose }: { rule: VendorRule | null; initial?: VendorRuleForm; onClose: () => void }) {
  const [form, setForm] = useState<VendorRuleForm>(() => initial ?? vendorRuleForm(rule));
  const [errors, setErrors] = useState<VendorRuleErrors>({});
  const vendors = useVendorList(ALL_VENDORS);
  // A vendor chosen before the editor opened (the drawer's transaction's) may be beyond the first page.
  const initialVendor = useVendor(initial?.vendorId ? initial.vendorId : null).data;
  const categories = useCategories();
  const accounts = useBankAccounts();
  const save = useSaveVendorRule();
  const remove = useDeleteVendorRule();
  const notice = useNotice();
  const [refused, setRefused] = useState<string | null>(null);
  const showError = (error: unknown) => setRefused(serverError(error, []).message);
  const access = useEditAccess();
  const set = <K extends keyof VendorRuleForm>(key: K, value: VendorRuleForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const vendorOptions = (vendors.data?.pages.flatMap((p) => p.data) ?? []).map((v) => ({ value: v.id, title: v.name }));
  if (rule?.vendor && !vendorOptions.some((o) => o.value === rule.vendor?.id)) vendorOptions.push({ value: rule.vendor.id, title: rule.vendor.name });
  if (initialVendor && !vendorOptions.some((o) => o.value === initialVendor.id)) vendorOptions.push({ value: initialVendor.id, title: initialVendor.name });
  const submit = () => {
    const found = validateVendorRule(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate({ id: rule?.id ?? null, body: vendorRuleBody(form) }, { onSuccess: (a) => (notice.success(a.message), onClose()), onError: showError });
  };
  return (
    <PartyDialog
      open
      onClose={onClose}
      title={rule === null ? 'New rule' : rule.name}
      actions={
        <>
          {rule !== null && (
            <Button
              variant="secondary"
              disabled={!access.canEdit}
              title={access.reason ?? undefined}
              loading={remove.isPending}
              onClick={() => remove.mutate(rule.id, { onSuccess: (a) => (notice.success(a.message), onClose()), onError: showError })}
            >
              Delete
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={!access.canEdit} title={access.reason ?? undefined} loading={save.isPending} onClick={submit}>
            Save rule
          </Button>
        </>
      }
    >
      <div className="grid gap-3">
        <TextField label="Rule name" name="name" required value={form.name} error={errors.name} onChange={(e) => set('name', e.target.value)} />
        <Combobox
          label="Vendor"
          name="vendorId"
          required
          options={vendorOptions}
          value={form.vendorId || null}
          error={errors.vendorId}
          onChange={(v) => set('vendorId', v)}
          placeholder="Choose a vendor"
        />
        <Combobox
          label="Category"
          name="categoryId"
          required
          options={categoryOptions(categories.data ?? [])}
          value={form.categoryId || null}
          error={errors.categoryId}
          onChange={(v) => set('categoryId', v)}
          placeholder="Choose a category"
        />
        <TextField
          label="Apply from"
          name="ruleApplyDateTime"
          type="date"
          value={form.ruleApplyDateTime}
          onChange={(e) => set('ruleApplyDateTime', e.target.value)}
        />
        <div className="grid gap-3 sm:grid-cols-[10rem_1fr]">
          <Select<DescriptionSign>
            label="Description"
            name="descriptionSign"
            options={DESCRIPTION_SIGNS}
            value={form.descriptionSign}
            onChange={(v) => set('descriptionSign', v)}
          />
          <TextField label="Description text" name="descriptionValue" value={form.descriptionValue} onChange={(e) => set('descriptionValue', e.target.value)} />
        </div>
        <div className="grid gap-3 sm:grid-cols-[10rem_1fr_1fr]">
          <Select<AmountSign> label="Amount" name="amountSign" options={AMOUNT_SIGNS} value={form.amountSign} onChange={(v) => set('amountSign', v)} />
          <TextField
            label="Amount value"
            name="amountValue"
            inputMode="decimal"
            maxLength={10}
            value={form.amountValue}
            error={errors.amountValue}
            onChange={(e) => set('amountValue', e.target.value)}
          />
          {form.amountSign === 'between' && (
            <TextField
              label="Upper amount"
              name="upperAmountValue"
              inputMode="decimal"
              maxLength={10}
              value={form.upperAmountValue}
              error={errors.upperAmountValue}
              onChange={(e) => set('upperAmountValue', e.target.value)}
            />
          )}
        </div>
        <Select
          label="Source account"
          name="sourceId"
          options={[{ value: '', label: 'Any account' }, ...(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name }))]}
          value={form.sourceId}
          onChange={(v) => set('sourceId', v)}
        />
        <DialogMessage text={refused} />
        {errors.conditions && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {errors.conditions}
          </p>
        )}
      </div>
    </PartyDialog>
  );
}
