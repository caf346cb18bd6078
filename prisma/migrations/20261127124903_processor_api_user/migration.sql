-- AlterTable
ALTER TABLE "processor_accounts" ADD COLUMN     "api_user" TEXT;
