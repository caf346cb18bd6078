-- AlterTable
ALTER TABLE "processor_accounts" ADD COLUMN     "tax_id" TEXT;
