-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "payer_name" TEXT;
