-- AlterTable
ALTER TABLE "RlRun" ADD COLUMN     "seed" INTEGER;
