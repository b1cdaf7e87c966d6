import {
  toMinorUnits,
  type AdminPlanItem,
  type AdminPlanList,
  type CreatePlanBody,
  type PlanList,
  type PlanSubscriberList,
  type UpdatePlanBody,
} from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../lib/app-error';
import { paginate } from '../files/files.presenter';
import type { PaymentProviders } from './payment-providers';
import type { SettingsService } from '../settings/settings.service';
import type { PlanRow, StoredMeter } from './billing.tables';
import type { PlanSubscribers } from './plan-subscribers';
import { presentAdminPlan, presentPlan } from './plans.presenter';
import type { PlansRepository } from './plans.repository';

export interface PlansServiceDeps {
  plans: PlansRepository;
  subscribers: PlanSubscribers;
  settings: SettingsService;
  /** Which providers a person can pay with now: no fixed plan is offered where none can take the money. */
  providers: Pick<PaymentProviders, 'usable'>;
  /** Queues the plan's registration with each configured provider (billing.register-plan). */
  registerPlan?: (planId: string) => Promise<void>;
  now: () => Date;
}

/** The body's amounts were checked against the currency by the contract, so they convert. */
function minor(amount: string, currency: string): number {
  return toMinorUnits(amount, currency)!;
}

/** Plans: the admin's catalogue and what a signed-in user may choose from. */
export class PlansService {
  constructor(private readonly deps: PlansServiceDeps) {}

  async create(body: CreatePlanBody): Promise<AdminPlanItem> {
    const at = this.deps.now().toISOString();
    const common = {
      id: randomUUID(),
      name: body.name,
      description: body.description,
      currency: body.currency,
      status: 'active' as const,
      created_at: at,
      updated_at: at,
    };
    const row =
      body.type === 'fixed'
        ? await this.deps.plans.insert({
            ...common,
            type: 'fixed',
            amount_minor: minor(body.amount, body.currency),
            interval: body.interval,
            max_storage_amount: body.features.max_storage_amount,
            max_team_members: body.features.max_team_members,
          })
        : await this.deps.plans.insert({
            ...common,
            type: 'metered',
            meters: JSON.stringify(
              body.meters.map((meter): StoredMeter => ({
                key: meter.key,
                aggregate: meter.aggregate,
                tiers: meter.tiers.map((tier) => ({
                  first_unit: tier.first_unit,
                  last_unit: tier.last_unit,
                  per_unit: minor(tier.per_unit, body.currency),
                  flat_fee: minor(tier.flat_fee, body.currency),
                })),
              })),
            ),
          });
    // Stored at once; the providers learn about it in the retried job. Metered plans are settled
    // from the balance and never registered.
    if (row.type === 'fixed') await this.deps.registerPlan?.(row.id);
    return presentAdminPlan(row, 0);
  }

  async list(page: number, perPage: number): Promise<AdminPlanList> {
    const { rows, total } = await this.deps.plans.page(page, perPage);
    const counts = await this.deps.subscribers.counts(rows.map((row) => row.id));
    return {
      data: rows.map((row) => presentAdminPlan(row, counts.get(row.id) ?? 0)),
      meta: { paginate: paginate(total, page, perPage) },
    };
  }

  async detail(id: string): Promise<AdminPlanItem> {
    const row = await this.plan(id);
    return presentAdminPlan(row, await this.subscriberCount(id));
  }

  async update(id: string, body: UpdatePlanBody): Promise<AdminPlanItem> {
    const plan = await this.plan(id);
    if (body.features && plan.type !== 'fixed') {
      throw AppError.invalid('features', 'billing.features_fixed_only');
    }
    const row = await this.deps.plans.update(id, {
      name: body.name,
      description: body.description,
      max_storage_amount: body.features?.max_storage_amount,
      max_team_members: body.features?.max_team_members,
      updated_at: this.deps.now().toISOString(),
    });
    if (!row) throw new AppError('not_found', 'errors.not_found');
    return presentAdminPlan(row, await this.subscriberCount(id));
  }

  /**
   * A plan somebody holds is archived (kept for them, hidden from new subscribers) and answered;
   * one nobody holds is deleted (null).
   */
  async remove(id: string): Promise<AdminPlanItem | null> {
    await this.plan(id);
    const subscribers = await this.subscriberCount(id);
    if (subscribers === 0) {
      await this.deps.plans.delete(id);
      return null;
    }
    const row = await this.deps.plans.update(id, {
      status: 'archived',
      updated_at: this.deps.now().toISOString(),
    });
    if (!row) throw new AppError('not_found', 'errors.not_found');
    return presentAdminPlan(row, subscribers);
  }

  async subscribers(id: string, page: number, perPage: number): Promise<PlanSubscriberList> {
    await this.plan(id);
    const { rows, total } = await this.deps.subscribers.page(id, page, perPage);
    return { data: rows, meta: { paginate: paginate(total, page, perPage) } };
  }

  /**
   * GET /api/subscriptions/plans: active plans of the instance's subscription type (none: no plans).
   * Fixed plans only while a provider can take the payment: nobody is offered a plan they cannot buy.
   */
  async available(): Promise<PlanList> {
    const settings = await this.deps.settings.all();
    const type = settings.subscription_type;
    if (type === 'none') return { data: [] };
    if (type === 'fixed' && this.deps.providers.usable(settings).length === 0) return { data: [] };
    return { data: (await this.deps.plans.activeOfType(type)).map(presentPlan) };
  }

  private async plan(id: string): Promise<PlanRow> {
    const row = await this.deps.plans.find(id);
    if (!row) throw new AppError('not_found', 'errors.not_found');
    return row;
  }

  private async subscriberCount(id: string): Promise<number> {
    return (await this.deps.subscribers.counts([id])).get(id) ?? 0;
  }
}
