-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "undo_until" TIMESTAMPTZ(3);
