CREATE TABLE "company_notes" (
	"symbol" text NOT NULL,
	"title" text NOT NULL,
	"exchange" text NOT NULL,
	"maturity" date NOT NULL,
	CONSTRAINT "company_notes_symbol_title_pk" PRIMARY KEY("symbol","title")
);
--> statement-breakpoint
CREATE TABLE "delisted_companies" (
	"symbol" text PRIMARY KEY NOT NULL,
	"company_name" text NOT NULL,
	"exchange" text NOT NULL,
	"ipo_date" date NOT NULL,
	"delisted_date" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "employee_counts" (
	"symbol" text NOT NULL,
	"period_of_report" date NOT NULL,
	"cik" text NOT NULL,
	"acceptance_time" timestamp NOT NULL,
	"company_name" text NOT NULL,
	"form_type" text NOT NULL,
	"filing_date" date NOT NULL,
	"employee_count" integer NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "employee_counts_symbol_period_of_report_pk" PRIMARY KEY("symbol","period_of_report")
);
--> statement-breakpoint
CREATE TABLE "executive_compensation" (
	"symbol" text NOT NULL,
	"year" integer NOT NULL,
	"name_and_position" text NOT NULL,
	"cik" text NOT NULL,
	"company_name" text NOT NULL,
	"industry" text NOT NULL,
	"filing_date" date NOT NULL,
	"accepted_date" timestamp NOT NULL,
	"salary" bigint NOT NULL,
	"bonus" bigint NOT NULL,
	"stock_award" bigint NOT NULL,
	"option_award" bigint NOT NULL,
	"incentive_plan_compensation" bigint NOT NULL,
	"all_other_compensation" bigint NOT NULL,
	"total" bigint NOT NULL,
	"link" text NOT NULL,
	"sort_order" integer NOT NULL,
	CONSTRAINT "executive_compensation_symbol_year_name_and_position_pk" PRIMARY KEY("symbol","year","name_and_position")
);
--> statement-breakpoint
CREATE TABLE "mergers_acquisitions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"company_name" text NOT NULL,
	"cik" text NOT NULL,
	"targeted_company_name" text NOT NULL,
	"targeted_cik" text NOT NULL,
	"targeted_symbol" text NOT NULL,
	"transaction_date" date NOT NULL,
	"accepted_date" timestamp NOT NULL,
	"link" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shares_float" (
	"symbol" text PRIMARY KEY NOT NULL,
	"date" timestamp NOT NULL,
	"free_float" double precision NOT NULL,
	"float_shares" bigint NOT NULL,
	"outstanding_shares" bigint NOT NULL,
	"source" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "symbol_changes" (
	"date" date NOT NULL,
	"company_name" text NOT NULL,
	"old_symbol" text NOT NULL,
	"new_symbol" text NOT NULL,
	CONSTRAINT "symbol_changes_old_symbol_date_pk" PRIMARY KEY("old_symbol","date")
);
--> statement-breakpoint
CREATE TABLE "etf_holdings" (
	"etf_symbol" text NOT NULL,
	"asset_symbol" text NOT NULL,
	"shares" double precision NOT NULL,
	"report_date" date NOT NULL,
	CONSTRAINT "etf_holdings_etf_symbol_asset_symbol_pk" PRIMARY KEY("etf_symbol","asset_symbol"),
	CONSTRAINT "etf_holdings_shares_check" CHECK (shares > 0)
);
--> statement-breakpoint
CREATE TABLE "index_constituent_changes" (
	"index_code" text NOT NULL,
	"date" date NOT NULL,
	"added_symbol" text,
	"removed_symbol" text,
	"reason" text NOT NULL,
	"sequence" integer NOT NULL,
	CONSTRAINT "index_constituent_changes_index_code_sequence_pk" PRIMARY KEY("index_code","sequence"),
	CONSTRAINT "index_constituent_changes_index_check" CHECK (index_code in ('sp500', 'nasdaq', 'dowjones'))
);
--> statement-breakpoint
CREATE TABLE "index_constituents" (
	"index_code" text NOT NULL,
	"symbol" text NOT NULL,
	"date_first_added" date NOT NULL,
	"founded" text DEFAULT '' NOT NULL,
	CONSTRAINT "index_constituents_index_code_symbol_pk" PRIMARY KEY("index_code","symbol"),
	CONSTRAINT "index_constituents_index_check" CHECK (index_code in ('sp500', 'nasdaq', 'dowjones'))
);
--> statement-breakpoint
CREATE TABLE "revenue_segments" (
	"symbol" text NOT NULL,
	"kind" text NOT NULL,
	"fiscal_year" integer NOT NULL,
	"period" text NOT NULL,
	"date" date NOT NULL,
	"reported_currency" text NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "revenue_segments_symbol_kind_fiscal_year_period_pk" PRIMARY KEY("symbol","kind","fiscal_year","period"),
	CONSTRAINT "revenue_segments_kind_check" CHECK (kind in ('product', 'geographic'))
);
--> statement-breakpoint
CREATE TABLE "beneficial_ownership" (
	"id" text PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"filing_date" date NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "house_trades" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"symbol" text NOT NULL,
	"disclosure_date" date NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "institutional_holders" (
	"cik" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "institutional_holdings" (
	"cik" text NOT NULL,
	"symbol" text NOT NULL,
	"year" integer NOT NULL,
	"quarter" integer NOT NULL,
	"filing_id" text NOT NULL,
	"shares" bigint NOT NULL,
	CONSTRAINT "institutional_holdings_cik_symbol_year_quarter_pk" PRIMARY KEY("cik","symbol","year","quarter"),
	CONSTRAINT "institutional_holdings_quarter_check" CHECK (quarter between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "private_offerings" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"cik" text NOT NULL,
	"company_name" text NOT NULL,
	"filing_date" date NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "private_offerings_kind_check" CHECK (kind in ('C', 'D'))
);
--> statement-breakpoint
CREATE TABLE "sec_filings" (
	"id" text PRIMARY KEY NOT NULL,
	"symbol" text DEFAULT '' NOT NULL,
	"cik" text NOT NULL,
	"company_name" text NOT NULL,
	"form_type" text NOT NULL,
	"filing_date" date NOT NULL,
	"accepted_date" text NOT NULL,
	"has_financials" boolean DEFAULT false NOT NULL,
	"period_end" date,
	"fiscal_year" integer,
	"period" text,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cot_reports" (
	"symbol" text NOT NULL,
	"date" date NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "cot_reports_symbol_date_pk" PRIMARY KEY("symbol","date"),
	CONSTRAINT "cot_reports_data_check" CHECK (jsonb_typeof(data) = 'object')
);
--> statement-breakpoint
CREATE TABLE "esg_disclosures" (
	"symbol" text NOT NULL,
	"fiscal_year" integer NOT NULL,
	"date" date NOT NULL,
	"accepted_date" timestamp NOT NULL,
	"form_type" text NOT NULL,
	"environmental_score" double precision NOT NULL,
	"social_score" double precision NOT NULL,
	"governance_score" double precision NOT NULL,
	"esg_score" double precision NOT NULL,
	"url" text NOT NULL,
	CONSTRAINT "esg_disclosures_symbol_fiscal_year_pk" PRIMARY KEY("symbol","fiscal_year")
);
--> statement-breakpoint
CREATE TABLE "price_target_news" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"symbol" text NOT NULL,
	"published_at" timestamp NOT NULL,
	"title" text NOT NULL,
	"url" text NOT NULL,
	"analyst_name" text NOT NULL,
	"analyst_company" text NOT NULL,
	"publisher" text NOT NULL,
	"price_target" double precision NOT NULL,
	"adj_price_target" double precision NOT NULL,
	"price_when_posted" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "company_notes" ADD CONSTRAINT "company_notes_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "employee_counts" ADD CONSTRAINT "employee_counts_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "executive_compensation" ADD CONSTRAINT "executive_compensation_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "mergers_acquisitions" ADD CONSTRAINT "mergers_acquisitions_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "shares_float" ADD CONSTRAINT "shares_float_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "etf_holdings" ADD CONSTRAINT "etf_holdings_etf_symbol_securities_symbol_fk" FOREIGN KEY ("etf_symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "etf_holdings" ADD CONSTRAINT "etf_holdings_asset_symbol_securities_symbol_fk" FOREIGN KEY ("asset_symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "index_constituent_changes" ADD CONSTRAINT "index_constituent_changes_added_symbol_securities_symbol_fk" FOREIGN KEY ("added_symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "index_constituent_changes" ADD CONSTRAINT "index_constituent_changes_removed_symbol_securities_symbol_fk" FOREIGN KEY ("removed_symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "index_constituents" ADD CONSTRAINT "index_constituents_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "revenue_segments" ADD CONSTRAINT "revenue_segments_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "beneficial_ownership" ADD CONSTRAINT "beneficial_ownership_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "house_trades" ADD CONSTRAINT "house_trades_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "institutional_holdings" ADD CONSTRAINT "institutional_holdings_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "cot_reports" ADD CONSTRAINT "cot_reports_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "esg_disclosures" ADD CONSTRAINT "esg_disclosures_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "price_target_news" ADD CONSTRAINT "price_target_news_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "delisted_companies_delisted_date_idx" ON "delisted_companies" USING btree ("delisted_date");--> statement-breakpoint
CREATE INDEX "executive_compensation_year_idx" ON "executive_compensation" USING btree ("year","industry");--> statement-breakpoint
CREATE INDEX "mergers_acquisitions_accepted_idx" ON "mergers_acquisitions" USING btree ("accepted_date");--> statement-breakpoint
CREATE INDEX "symbol_changes_date_idx" ON "symbol_changes" USING btree ("date");--> statement-breakpoint
CREATE INDEX "etf_holdings_asset_idx" ON "etf_holdings" USING btree ("asset_symbol");--> statement-breakpoint
CREATE INDEX "index_constituent_changes_date_idx" ON "index_constituent_changes" USING btree ("index_code","date");--> statement-breakpoint
CREATE INDEX "beneficial_ownership_symbol_idx" ON "beneficial_ownership" USING btree ("symbol","filing_date");--> statement-breakpoint
CREATE INDEX "house_trades_disclosure_date_idx" ON "house_trades" USING btree ("disclosure_date");--> statement-breakpoint
CREATE INDEX "institutional_holdings_symbol_idx" ON "institutional_holdings" USING btree ("symbol","year","quarter");--> statement-breakpoint
CREATE INDEX "private_offerings_kind_idx" ON "private_offerings" USING btree ("kind","filing_date");--> statement-breakpoint
CREATE INDEX "private_offerings_cik_idx" ON "private_offerings" USING btree ("cik");--> statement-breakpoint
CREATE INDEX "sec_filings_filing_date_idx" ON "sec_filings" USING btree ("filing_date");--> statement-breakpoint
CREATE INDEX "sec_filings_symbol_idx" ON "sec_filings" USING btree ("symbol","filing_date");--> statement-breakpoint
CREATE INDEX "sec_filings_cik_idx" ON "sec_filings" USING btree ("cik","filing_date");--> statement-breakpoint
CREATE INDEX "sec_filings_form_type_idx" ON "sec_filings" USING btree ("form_type","filing_date");--> statement-breakpoint
CREATE INDEX "price_target_news_symbol_idx" ON "price_target_news" USING btree ("symbol","published_at");--> statement-breakpoint
CREATE INDEX "price_target_news_published_idx" ON "price_target_news" USING btree ("published_at");