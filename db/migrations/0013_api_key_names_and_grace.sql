ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_check";--> statement-breakpoint
DROP INDEX "api_keys_one_active_per_user_idx";--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "name" text DEFAULT 'Default key' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "is_primary" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_one_primary_per_user_idx" ON "api_keys" USING btree ("user_id") WHERE revoked_at is null and expires_at is null and is_primary;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_check" CHECK (action in ('impersonate', 'block', 'unblock', 'role_change', 'plan_change', 'api_key_create', 'api_key_roll', 'api_key_revoke', 'device_authorize'));