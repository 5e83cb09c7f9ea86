ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_check";--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "max_redemptions" integer;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "times_redeemed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_email_prefix_idx" ON "users" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_username_prefix_idx" ON "users" USING btree (lower("username") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_check" CHECK (action in ('impersonate', 'block', 'unblock', 'role_change', 'plan_change', 'api_key_create', 'api_key_roll', 'api_key_revoke', 'device_authorize', 'profile_update', 'email_change_request', 'email_change', 'password_change', 'sign_in_method_link', 'sign_in_method_unlink', 'sessions_end', 'data_export', 'account_delete', 'impersonate_end', 'legacy_change', 'verification_resend', 'coupon_create', 'coupon_disable'));--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_max_redemptions_check" CHECK (max_redemptions is null or max_redemptions > 0);--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_times_redeemed_check" CHECK (times_redeemed >= 0);