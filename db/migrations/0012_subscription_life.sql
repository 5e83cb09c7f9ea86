CREATE TABLE "test_mode_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"plan_code" text NOT NULL,
	"status" text NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"scheduled_plan_code" text,
	"currency" text NOT NULL,
	"card_last4" text NOT NULL,
	"card_renewals" text DEFAULT 'pay' NOT NULL,
	"balance_cents" integer DEFAULT 0 NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_mode_subscriptions_status_check" CHECK (status in ('active', 'past_due', 'canceled', 'incomplete')),
	CONSTRAINT "test_mode_subscriptions_card_renewals_check" CHECK (card_renewals in ('pay', 'decline')),
	CONSTRAINT "test_mode_subscriptions_balance_check" CHECK (balance_cents >= 0)
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "scheduled_plan_code" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "next_payment_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "test_mode_subscriptions" ADD CONSTRAINT "test_mode_subscriptions_plan_code_price_plans_code_fk" FOREIGN KEY ("plan_code") REFERENCES "price_plans"("code") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "test_mode_subscriptions" ADD CONSTRAINT "test_mode_subscriptions_scheduled_plan_code_price_plans_code_fk" FOREIGN KEY ("scheduled_plan_code") REFERENCES "price_plans"("code") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "test_mode_subscriptions_due_idx" ON "test_mode_subscriptions" USING btree ("status","current_period_end");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_scheduled_plan_code_price_plans_code_fk" FOREIGN KEY ("scheduled_plan_code") REFERENCES "price_plans"("code") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
-- Test-mode subscriptions started before the provider kept its own record: renewed with a card that pays.
INSERT INTO "test_mode_subscriptions" ("id", "customer_id", "plan_code", "status", "current_period_start", "current_period_end", "cancel_at_period_end", "currency", "card_last4")
SELECT s."provider_subscription_id", s."provider_customer_id", s."plan_code", s."status", s."current_period_start", s."current_period_end", s."cancel_at_period_end", p."currency", '4242'
FROM "subscriptions" s JOIN "price_plans" p ON p."code" = s."plan_code"
WHERE s."provider" = 'test'
ON CONFLICT DO NOTHING;
