-- AlterTable
ALTER TABLE "merchants" ADD COLUMN     "support_email" TEXT;
