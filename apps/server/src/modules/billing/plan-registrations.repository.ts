import type { PaymentDriver } from '@atelier/contracts';
import type { Database } from '../../db/database';

/** A plan's id at each payment provider. Kysely only. */
export class PlanRegistrationsRepository {
  constructor(private readonly database: Database) {}

  async providerPlanId(planId: string, driver: PaymentDriver): Promise<string | null> {
    const row = await this.database.db
      .selectFrom('plan_registrations')
      .select('provider_plan_id')
      .where('plan_id', '=', planId)
      .where('driver', '=', driver)
      .executeTakeFirst();
    return row?.provider_plan_id ?? null;
  }

  async planIdOf(driver: PaymentDriver, providerPlanId: string): Promise<string | null> {
    const row = await this.database.db
      .selectFrom('plan_registrations')
      .select('plan_id')
      .where('driver', '=', driver)
      .where('provider_plan_id', '=', providerPlanId)
      .executeTakeFirst();
    return row?.plan_id ?? null;
  }

  /** Keeps the first id stored for the plan at the driver (a retried job never replaces it). */
  async store(planId: string, driver: PaymentDriver, providerPlanId: string, at: string): Promise<void> {
    await this.database.db
      .insertInto('plan_registrations')
      .values({ plan_id: planId, driver, provider_plan_id: providerPlanId, created_at: at })
      .onConflict((oc) => oc.columns(['plan_id', 'driver']).doNothing())
      .execute();
  }
}
