-- A sandbox processor keeps the id it gave an approval, so that a status inquiry after a timeout
-- answers it as the authorization would have. Records from before have none.
-- AlterTable
ALTER TABLE "sandbox_processor_records" ADD COLUMN     "brand_transaction_id" TEXT;
