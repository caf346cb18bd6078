-- AlterTable
ALTER TABLE "console_users" ADD COLUMN     "session_generation" INTEGER NOT NULL DEFAULT 0;
