CREATE TABLE "symbol_searches" (
	"day" date NOT NULL,
	"symbol" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "symbol_searches_day_symbol_pk" PRIMARY KEY("day","symbol"),
	CONSTRAINT "symbol_searches_count_check" CHECK (count >= 0)
);
--> statement-breakpoint
ALTER TABLE "etf_holdings" DROP CONSTRAINT "etf_holdings_etf_symbol_asset_symbol_pk";--> statement-breakpoint
ALTER TABLE "etf_holdings" ADD CONSTRAINT "etf_holdings_etf_symbol_report_date_asset_symbol_pk" PRIMARY KEY("etf_symbol","report_date","asset_symbol");--> statement-breakpoint
ALTER TABLE "etf_holdings" ADD COLUMN "filing_id" text;--> statement-breakpoint
-- Professional's holdings line names what it now covers (tests/integration/plan-features.test.ts):
-- the holdings of ETFs and mutual funds, their weightings and the funds' quarterly N-PORT disclosures.
UPDATE "price_plans" SET "features" = '["Everything in Starter", "Quarterly statements, metrics and ratios", "Intraday bars from one minute to four hours", "Analyst estimates, price targets and grades", "Earnings call transcripts and institutional ownership", "SEC filings and Form 13F holdings", "ETF and mutual fund holdings, weightings and quarterly disclosures", "Real-time US stock prices over a websocket stream", "Full daily history", "120 calls a minute and 50,000 a day", "Personal, non-commercial use"]'::jsonb WHERE "code" = 'monthlyT2';
