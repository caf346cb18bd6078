-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "processor_reference" TEXT;

-- The reference written so far lives in additional_fields: moved to its column, once.
UPDATE "transactions"
SET "processor_reference" = "additional_fields"->>'processor_reference',
    "additional_fields" = "additional_fields" - 'processor_reference'
WHERE "additional_fields" ? 'processor_reference';
