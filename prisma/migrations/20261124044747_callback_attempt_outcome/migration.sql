-- AlterTable
ALTER TABLE "callback_attempts" ADD COLUMN     "outcome" TEXT;
