ALTER TABLE "enterprise_enquiries" ADD COLUMN "job_title" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprise_enquiries" ADD COLUMN "company_size" text;--> statement-breakpoint
ALTER TABLE "enterprise_enquiries" ADD COLUMN "consented_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "enterprise_enquiries" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "enterprise_enquiries" ADD CONSTRAINT "enterprise_enquiries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enterprise_enquiries_created_at_idx" ON "enterprise_enquiries" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "enterprise_enquiries" ADD CONSTRAINT "enterprise_enquiries_company_size_check" CHECK (company_size is null or company_size in ('1-10', '11-50', '51-200', '201-1000', '1001-5000', '5001+'));