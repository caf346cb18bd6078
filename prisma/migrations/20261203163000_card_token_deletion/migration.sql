-- AlterTable
ALTER TABLE "processor_card_tokens" ADD COLUMN     "delete_after" TIMESTAMPTZ(3),
ADD COLUMN     "delete_attempts" INTEGER NOT NULL DEFAULT 0;
